//! Line ranges as agents write them, and the interval merging of ADR-001 Stage 2: the one
//! definition `change` anchors edits with and `explore` reads regions with, so a range an error
//! suggests is a range the next call accepts.

use serde::{Deserialize, Serialize};

/// `{start, end}`, `[start, end]` or `"start-end"` (1-based, inclusive).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum LineRange {
    Object { start: u32, end: u32 },
    Pair([u32; 2]),
    Text(String),
}

impl LineRange {
    /// The range's first and last line, or why it is not a range (zero, reversed, not a number).
    pub fn bounds(&self) -> Result<(u32, u32), String> {
        let (start, end) = match self {
            LineRange::Object { start, end } => (*start, *end),
            LineRange::Pair([s, e]) => (*s, *e),
            LineRange::Text(t) => {
                let parse = |s: &str| {
                    s.trim()
                        .parse::<u32>()
                        .map_err(|_| format!("line range {t:?} is not \"start-end\""))
                };
                match t.split_once('-') {
                    Some((s, e)) => (parse(s)?, parse(e)?),
                    None => {
                        let n = parse(t)?;
                        (n, n)
                    }
                }
            }
        };
        if start == 0 || end < start {
            return Err(format!(
                "line range {start}-{end} is empty (lines are 1-based, start <= end)"
            ));
        }
        Ok((start, end))
    }
}

/// One stretch of lines to read, and the requested ranges that produced it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    pub start: u32,
    pub end: u32,
    pub asked: Vec<(u32, u32)>,
}

/// ADR-001 Stage 2: each range widened by `context` lines on both sides (within 1..=`total`),
/// then overlapping and adjacent ones joined, in file order. Ranges that start past the last
/// line are left out (the caller reports them).
pub fn merge(ranges: &[(u32, u32)], context: u32, total: u32) -> Vec<Merged> {
    let mut wide: Vec<(u32, u32, (u32, u32))> = ranges
        .iter()
        .filter(|(start, _)| *start <= total)
        .map(|&(start, end)| {
            (
                start.saturating_sub(context).max(1),
                end.saturating_add(context).min(total),
                (start, end),
            )
        })
        .collect();
    wide.sort();
    let mut out: Vec<Merged> = Vec::new();
    for (start, end, asked) in wide {
        match out.last_mut() {
            Some(last) if start <= last.end.saturating_add(1) => {
                last.end = last.end.max(end);
                if !last.asked.contains(&asked) {
                    last.asked.push(asked);
                }
            }
            _ => out.push(Merged {
                start,
                end,
                asked: vec![asked],
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_adr_example_merges_four_ranges_into_two() {
        let merged = merge(&[(10, 15), (12, 18), (50, 55), (52, 60)], 3, 1000);
        let spans: Vec<(u32, u32)> = merged.iter().map(|m| (m.start, m.end)).collect();
        assert_eq!(spans, vec![(7, 21), (47, 63)]);
        assert_eq!(merged[0].asked, vec![(10, 15), (12, 18)]);
        assert_eq!(merged[1].asked, vec![(50, 55), (52, 60)]);
    }

    #[test]
    fn adjacent_ranges_join_and_the_file_bounds_clamp() {
        let merged = merge(&[(8, 9), (1, 4), (5, 6)], 0, 8);
        let spans: Vec<(u32, u32)> = merged.iter().map(|m| (m.start, m.end)).collect();
        assert_eq!(
            spans,
            vec![(1, 6), (8, 8)],
            "1-4 and 5-6 touch; 8-9 ends at the file"
        );
        assert!(
            merge(&[(20, 30)], 3, 10).is_empty(),
            "past the end is left out"
        );
        assert_eq!(merge(&[(3, 3), (3, 3)], 1, 10)[0].asked, vec![(3, 3)]);
    }

    #[test]
    fn ranges_parse_in_all_three_spellings() {
        let parse = |json: &str| serde_json::from_str::<LineRange>(json).unwrap().bounds();
        assert_eq!(parse(r#"{"start":3,"end":5}"#), Ok((3, 5)));
        assert_eq!(parse("[3,5]"), Ok((3, 5)));
        assert_eq!(parse(r#""3-5""#), Ok((3, 5)));
        assert_eq!(parse(r#""7""#), Ok((7, 7)));
        assert!(parse("[5,3]").is_err() && parse("[0,3]").is_err());
        assert!(parse(r#""x-3""#).is_err());
    }
}
