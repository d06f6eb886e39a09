//! Where the lines of an older version of a file are in the newest one: what lets a commit
//! deep in the history be charged to the functions of today's file (function-level churn).
//! Walking the history newest first, each commit's diff (parent to commit) is composed onto
//! the map, so the map always starts from the version the next older commit produced.
//!
//! A line a later commit rewrote maps to where its rewrite is: code edited again and again in
//! one place keeps all its edits, though no line of the first edit is left.

use std::ops::Range;

/// Lines (0-based) of one version of a file and where each is in the newest version.
#[derive(Debug, Clone, PartialEq)]
pub struct LineMap {
    /// Ordered, not overlapping runs of this version's lines.
    runs: Vec<Run>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Run {
    start: u32,
    len: u32,
    to: To,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum To {
    /// Line for line, from this line of the newest version on.
    Lines(u32),
    /// Every line to the whole of these lines of the newest version (what replaced them).
    Region(u32, u32),
}

/// One step of a diff from a parent version to the commit's, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// `len` lines at `old` in the parent are at `new` in the commit.
    Kept { old: u32, new: u32, len: u32 },
    /// The parent's lines `old` became the commit's lines `new` (for a deletion, the lines on
    /// either side of where the parent's were).
    Changed { old: Range<u32>, new: Range<u32> },
}

impl LineMap {
    /// The newest version itself: every line in its place.
    pub fn identity(lines: u32) -> Self {
        Self {
            runs: if lines == 0 {
                Vec::new()
            } else {
                vec![Run {
                    start: 0,
                    len: lines,
                    to: To::Lines(0),
                }]
            },
        }
    }

    /// The newest version's lines that `lines` (of this version) became, as ranges.
    pub fn to_newest(&self, lines: Range<u32>) -> Vec<Range<u32>> {
        let first = self
            .runs
            .partition_point(|r| r.start + r.len <= lines.start);
        let mut out: Vec<Range<u32>> = Vec::new();
        for run in &self.runs[first..] {
            if run.start >= lines.end {
                break;
            }
            let a = lines.start.max(run.start);
            let b = lines.end.min(run.start + run.len);
            if a >= b {
                continue;
            }
            let range = match run.to {
                To::Lines(to) => to + (a - run.start)..to + (b - run.start),
                To::Region(from, until) => from..until,
            };
            match out.last_mut() {
                Some(last) if range.start <= last.end && last.start <= range.start => {
                    last.end = last.end.max(range.end);
                }
                _ => out.push(range),
            }
        }
        out
    }

    /// The map for the parent version, from the commit's diff.
    pub fn through(&self, steps: &[Step]) -> Self {
        let mut runs = Vec::new();
        for step in steps {
            match step {
                Step::Kept { old, new, len } => {
                    let first = self.runs.partition_point(|r| r.start + r.len <= *new);
                    for run in &self.runs[first..] {
                        if run.start >= new + len {
                            break;
                        }
                        let a = (*new).max(run.start);
                        let b = (new + len).min(run.start + run.len);
                        if a < b {
                            let to = match run.to {
                                To::Lines(to) => To::Lines(to + (a - run.start)),
                                region => region,
                            };
                            runs.push(Run {
                                start: old + (a - new),
                                len: b - a,
                                to,
                            });
                        }
                    }
                }
                Step::Changed { old, new } if !old.is_empty() => {
                    let hull = self
                        .to_newest(new.clone())
                        .into_iter()
                        .reduce(|a, b| a.start.min(b.start)..a.end.max(b.end));
                    if let Some(hull) = hull {
                        runs.push(Run {
                            start: old.start,
                            len: old.end - old.start,
                            to: To::Region(hull.start, hull.end),
                        });
                    }
                }
                Step::Changed { .. } => {}
            }
        }
        Self { runs }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(old: u32, new: u32, len: u32) -> Step {
        Step::Kept { old, new, len }
    }

    fn changed(old: Range<u32>, new: Range<u32>) -> Step {
        Step::Changed { old, new }
    }

    #[test]
    fn identity_maps_every_line_to_itself() {
        let m = LineMap::identity(10);
        assert_eq!(m.to_newest(2..5), vec![2..5]);
        assert_eq!(m.to_newest(8..20), vec![8..10]);
        assert!(LineMap::identity(0).to_newest(0..u32::MAX).is_empty());
    }

    #[test]
    fn composing_two_commits_follows_lines_back_through_both() {
        // Newest: 10 lines. The newest commit inserted 2 lines at 3 (parent lines 0-2 kept at
        // 0-2, parent lines 3-7 now at 5-9).
        let newest = LineMap::identity(10);
        let before = newest.through(&[kept(0, 0, 3), changed(3..3, 3..5), kept(3, 5, 5)]);
        assert_eq!(before.to_newest(0..8), vec![0..3, 5..10]);
        // The commit before rewrote parent line 1 (of 8): line 1 then maps to
        // what replaced it, wherever that is now.
        let older = before.through(&[kept(0, 0, 1), changed(1..2, 1..2), kept(2, 2, 6)]);
        assert_eq!(older.to_newest(0..1), vec![0..1]);
        assert_eq!(older.to_newest(1..2), vec![1..2], "the rewrite's place");
        assert_eq!(older.to_newest(2..4), vec![2..3, 5..6]);
        // A line deleted later maps to the lines around where it was.
        let deleted = before.through(&[kept(0, 0, 4), changed(4..5, 3..5), kept(5, 4, 4)]);
        assert_eq!(deleted.to_newest(4..5), vec![5..7]);
        // A file written whole by the commit keeps nothing older.
        assert!(
            older
                .through(&[changed(0..0, 0..8)])
                .to_newest(0..u32::MAX)
                .is_empty()
        );
    }
}
