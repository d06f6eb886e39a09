//! Finding the one place an edit applies (ADR-001 Stage 3, ADR-033 §4.2): exact first, then
//! whitespace-normalized, structural (indentation re-based) and fuzzy, each narrowed by the
//! anchors. The first mode that finds the target decides: one place is the match, several are
//! MULTIPLE_MATCHES with every location, anchors that rule all out are ANCHOR_FAILED. No mode
//! finding it is NO_MATCH with the nearest candidates.

use crate::fuzzy;
use crate::indent::leading;
use crate::normalize::{Norm, Target, fits, squash, widen};
use crate::text::{IndentStyle, line_starts};
use sdk::{ToolError, codes};
use serde::Serialize;
use serde_json::json;

/// Lines of context the anchors look at before and after a match.
const ANCHOR_LINES: usize = 10;
/// Candidates listed with NO_MATCH.
const NEAREST: usize = 3;
/// Lines (by shared words) whose character distance to the target is worked out for NO_MATCH.
const RANKED: usize = 40;
/// Banded edit-distance cells NO_MATCH may spend ranking candidates (~tens of ms in wasm).
const RANKING_CELLS: usize = 1_500_000;
/// Locations listed with MULTIPLE_MATCHES.
const MAX_LOCATIONS: usize = 20;
/// Lines a lineRange may be off (as an agent's are after its own earlier edits) and still pick
/// the occurrence it was meant for: the only one, or one clearly nearer than the next.
pub const HINT_DRIFT_LINES: usize = 100;
/// "Clearly nearer": the next occurrence is at least twice as far off, and this many lines more.
const CLEAR_MARGIN: usize = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Exact,
    Whitespace,
    Structural,
    Fuzzy,
}

/// Where an edit may apply, besides its target text.
#[derive(Debug, Clone, Default)]
pub struct Anchors<'a> {
    /// 1-based, inclusive.
    pub line_range: Option<(u32, u32)>,
    pub before: Option<&'a str>,
    pub after: Option<&'a str>,
}

#[derive(Debug, Clone, Copy)]
pub struct FuzzyOptions {
    pub enabled: bool,
    pub max_distance: usize,
    pub whitespace_only: bool,
}

impl Default for FuzzyOptions {
    fn default() -> Self {
        Self {
            enabled: true,
            max_distance: 5,
            whitespace_only: true,
        }
    }
}

/// The place an edit applies and how it was found.
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    pub start: usize,
    pub end: usize,
    pub mode: Mode,
    pub distance: Option<usize>,
    /// The match begins at a line start (the replacement's first line is re-indented too).
    pub starts_line: bool,
    /// How many lines the lineRange hint was off (positive: the text is below the range),
    /// when the hint was stale but the choice was still clear.
    pub hint_off: Option<i64>,
}

/// Finds where `target` applies in `body`.
pub struct Matcher<'a> {
    body: &'a str,
    starts: Vec<usize>,
    /// The file's indentation style, worked out when a tolerant mode first needs it.
    style: Option<IndentStyle>,
    norm: Option<Norm>,
}

impl<'a> Matcher<'a> {
    pub fn new(body: &'a str) -> Self {
        Self {
            body,
            starts: line_starts(body),
            style: None,
            norm: None,
        }
    }

    /// 1-based line of byte offset `at`.
    pub fn line(&self, at: usize) -> u32 {
        self.starts.partition_point(|&s| s <= at) as u32
    }

    fn column(&self, at: usize) -> u32 {
        let line_start = self.starts[self.line(at) as usize - 1];
        self.body[line_start..at].chars().count() as u32 + 1
    }

    fn norm(&mut self) -> &Norm {
        self.norm.get_or_insert_with(|| Norm::new(self.body))
    }

    pub fn locate(
        &mut self,
        target: &str,
        anchors: &Anchors,
        fuzzy: FuzzyOptions,
    ) -> Result<Match, ToolError> {
        if target.is_empty() {
            if self.body.trim().is_empty() {
                return Ok(Match {
                    start: 0,
                    end: self.body.len(),
                    mode: Mode::Exact,
                    distance: None,
                    starts_line: true,
                    hint_off: None,
                });
            }
            return Err(ToolError::new(codes::INVALID_ARGS, "targetString is empty")
                .suggest("quote the exact text to replace, with a line or two of context; an empty target only fills an empty file"));
        }
        let exact: Vec<Match> = self
            .body
            .match_indices(target)
            .map(|(s, t)| Match {
                start: s,
                end: s + t.len(),
                mode: Mode::Exact,
                distance: None,
                starts_line: s == 0 || self.body.as_bytes()[s - 1] == b'\n',
                hint_off: None,
            })
            .collect();
        if !exact.is_empty() {
            return self.decide(exact, anchors, target);
        }
        let shape = Target::new(target);
        if shape.text.is_empty() {
            return Err(self.no_match(target, &shape, anchors));
        }
        let normalized = self.normalized(target, &shape);
        if !normalized.is_empty() {
            return self.decide(normalized, anchors, target);
        }
        if fuzzy.enabled && fuzzy.max_distance > 0 {
            let found = self.fuzzy(target, &shape, fuzzy);
            if !found.is_empty() {
                let best = found.iter().filter_map(|m| m.distance).min().unwrap_or(0);
                let best: Vec<Match> = found
                    .into_iter()
                    .filter(|m| m.distance == Some(best))
                    .collect();
                let chosen = self.decide(best, anchors, target)?;
                let distance = chosen.distance.unwrap_or(0);
                if distance * 4 > shape.text.chars().count() {
                    return Err(ToolError::new(
                        codes::FUZZY_UNSAFE,
                        format!(
                            "the closest text (line {}) is {distance} edits from a {}-character target: too different to replace safely",
                            self.line(chosen.start),
                            shape.text.chars().count()
                        ),
                    )
                    .suggest("quote the target exactly (read the lines first), or lower fuzzy.maxDistance")
                    .details(json!({ "candidates": [self.location(&chosen)], "distance": distance })));
                }
                return Ok(chosen);
            }
        }
        Err(self.no_match(target, &shape, anchors))
    }

    /// The whitespace and structural candidates: the target's view found in the file's view,
    /// at line boundaries where the target asks for them.
    fn normalized(&mut self, target: &str, shape: &Target) -> Vec<Match> {
        let body = self.body;
        let norm = self.norm();
        let view = norm.text.as_str();
        let mut spans = Vec::new();
        let mut from = 0;
        while let Some(i) = view[from..].find(&shape.text) {
            let s = from + i;
            let e = s + shape.text.len();
            if fits(view, shape, s, e) {
                spans.push(norm.span(s, e));
            }
            from = s + view[s..].chars().next().map_or(1, char::len_utf8);
        }
        spans
            .into_iter()
            .map(|(s, e)| {
                let (s, e) = widen(body, shape, s, e);
                classify(body, s, e, target, None)
            })
            .collect()
    }

    fn fuzzy(&mut self, target: &str, shape: &Target, options: FuzzyOptions) -> Vec<Match> {
        let body = self.body;
        let norm = self.norm();
        let windows = fuzzy::windows(
            &norm.text,
            &shape.text,
            options.max_distance,
            options.whitespace_only,
        );
        let spans: Vec<_> = windows
            .into_iter()
            .map(|w| (norm.span(w.start, w.end), w.distance))
            .collect();
        spans
            .into_iter()
            .map(|((s, e), distance)| {
                let (s, e) = widen(body, shape, s, e);
                classify(body, s, e, target, Some(distance))
            })
            .collect()
    }

    /// One candidate is the match; anchors narrow several (or check one). A stale lineRange
    /// still picks the occurrence it was clearly meant for (see [`HINT_DRIFT_LINES`]).
    fn decide(
        &self,
        found: Vec<Match>,
        anchors: &Anchors,
        target: &str,
    ) -> Result<Match, ToolError> {
        let total = found.len();
        let by_context: Vec<(usize, &Match)> = found
            .iter()
            .filter_map(|m| self.context_gap(m, anchors).map(|gap| (gap, m)))
            .collect();
        let nearest = |c: &[(usize, &Match)]| -> Vec<Match> {
            let best = c.iter().map(|(g, _)| *g).min().unwrap_or(0);
            c.iter()
                .filter(|(g, _)| *g == best)
                .map(|(_, m)| (*m).clone())
                .collect()
        };
        let kept: Vec<Match> = match anchors.line_range {
            None => nearest(&by_context),
            Some(range) => {
                let inside: Vec<(usize, &Match)> = by_context
                    .iter()
                    .filter(|(_, m)| self.hint_off(m, range) == 0)
                    .copied()
                    .collect();
                if !inside.is_empty() {
                    nearest(&inside)
                } else {
                    let mut off: Vec<(usize, usize, &Match)> = by_context
                        .iter()
                        .map(|&(g, m)| (self.hint_off(m, range).unsigned_abs() as usize, g, m))
                        .collect();
                    off.sort_by_key(|&(o, g, m)| (o, g, m.start));
                    let clear = match off.as_slice() {
                        [] => None,
                        [(o, _, m)] => (*o <= HINT_DRIFT_LINES).then_some(*m),
                        [(o, _, m), (next, _, _), ..] => (*o <= HINT_DRIFT_LINES
                            && *next >= (2 * *o).max(*o + CLEAR_MARGIN))
                        .then_some(*m),
                    };
                    if let Some(m) = clear {
                        let mut m = m.clone();
                        m.hint_off = Some(self.hint_off(&m, range));
                        return Ok(m);
                    }
                    return Err(self.stale_hint(&found, &off, range, total));
                }
            }
        };
        match kept.len() {
            1 => Ok(kept.into_iter().next().expect("one")),
            0 => Err(ToolError::new(
                codes::ANCHOR_FAILED,
                format!(
                    "targetString occurs {total} time(s) but not where the anchors say (beforeContext, afterContext)"
                ),
            )
            .suggest("fix the anchors to one of the locations listed, or drop them")
            .details(json!({ "count": total, "matches": self.locations(&found) }))),
            n => Err(ToolError::new(
                codes::MULTIPLE_MATCHES,
                format!(
                    "targetString occurs {n} times{}",
                    if found[0].mode == Mode::Exact { String::new() } else { format!(" ({} match)", mode_name(found[0].mode)) }
                ),
            )
            .suggest(format!(
                "anchor the edit: give lineRange (e.g. {{\"start\": {0}, \"end\": {0}}}) or beforeContext/afterContext, or quote more surrounding lines",
                self.line(kept[0].start)
            ))
            .details(json!({
                "count": n,
                "matches": self.locations(&kept),
                "targetLines": target.lines().count().max(1),
            }))),
        }
    }

    /// ANCHOR_FAILED for a lineRange no occurrence is in, nor clearly meant for.
    fn stale_hint(
        &self,
        found: &[Match],
        off: &[(usize, usize, &Match)],
        (lo, hi): (u32, u32),
        total: usize,
    ) -> ToolError {
        let why = match off {
            [] => "none where beforeContext/afterContext say".to_string(),
            [(o, _, m), (next, _, n), ..] if *o <= HINT_DRIFT_LINES => format!(
                "the nearest (line {}, {o} lines off) is not clearly nearer than the next (line {}, {next} lines off)",
                self.line(m.start),
                self.line(n.start)
            ),
            [(o, _, m), ..] => format!(
                "the nearest is at line {}, {o} lines off (more than {HINT_DRIFT_LINES})",
                self.line(m.start)
            ),
        };
        let listed: Vec<Match> = off.iter().map(|(_, _, m)| (*m).clone()).collect();
        ToolError::new(
            codes::ANCHOR_FAILED,
            format!("targetString occurs {total} time(s), none within lineRange {lo}-{hi}: {why}"),
        )
        .suggest("give the lineRange of one of the locations listed (read them first), or drop lineRange")
        .details(json!({
            "count": total,
            "matches": self.locations(if listed.is_empty() { found } else { &listed }),
        }))
    }

    /// Lines `m` lies outside `lo..=hi`: 0 inside, negative above the range, positive below.
    fn hint_off(&self, m: &Match, (lo, hi): (u32, u32)) -> i64 {
        let first = self.line(m.start) as i64;
        let last = self.line(m.end.saturating_sub(1).max(m.start)) as i64;
        if first < lo as i64 {
            first - lo as i64
        } else if last > hi as i64 {
            last - hi as i64
        } else {
            0
        }
    }

    /// None when `m` is outside the text anchors; else how many lines away its context is (0
    /// when the context is on the adjacent line), so the nearest of several candidates can win.
    fn context_gap(&self, m: &Match, anchors: &Anchors) -> Option<usize> {
        let first = self.line(m.start) as usize;
        let last = self.line(m.end.saturating_sub(1).max(m.start)) as usize;
        let mut gap = 0;
        if let Some(before) = anchors.before.filter(|b| !b.trim().is_empty()) {
            let wanted = squash(before);
            gap += (0..=ANCHOR_LINES.min(first - 1)).find(|k| {
                let from = self.starts[first - 1 - k];
                squash(&self.body[from..m.start]).contains(&wanted)
            })?;
        }
        if let Some(after) = anchors.after.filter(|a| !a.trim().is_empty()) {
            let wanted = squash(after);
            gap += (0..=ANCHOR_LINES).find(|k| {
                let to = self
                    .starts
                    .get(last + k)
                    .copied()
                    .unwrap_or(self.body.len())
                    .max(m.end);
                squash(&self.body[m.end..to]).contains(&wanted)
            })?;
        }
        Some(gap)
    }

    /// The file's indentation style (what a re-indented replacement is written in).
    pub fn style(&mut self) -> IndentStyle {
        let body = self.body;
        *self
            .style
            .get_or_insert_with(|| crate::text::indent_style(body))
    }

    /// A tolerant match `m` widened to the whole lines the agent means: back to the line start
    /// when the target was quoted without its first line's indentation but the replacement
    /// brings one, and over the blank lines the target begins and ends with, as far as the
    /// file has them there (a tolerant match leaves them out; they are the agent's to replace).
    pub fn whole_lines(&self, mut m: Match, target: &str, replacement: &str) -> Match {
        let indented = |s: &str| s.starts_with([' ', '\t']);
        if !m.starts_line && indented(replacement) && !indented(target) {
            let line_start = self.starts[self.line(m.start) as usize - 1];
            if self.body[line_start..m.start].trim().is_empty() {
                m.start = line_start;
                m.starts_line = true;
            }
        }
        let segments: Vec<&str> = target.split_inclusive('\n').collect();
        if segments.iter().all(|l| l.trim().is_empty()) {
            return m;
        }
        let lead = segments.iter().take_while(|l| l.trim().is_empty()).count();
        let trail = segments
            .iter()
            .rev()
            .take_while(|l| l.trim().is_empty())
            .count();
        let bytes = self.body.as_bytes();
        if m.starts_line {
            for _ in 0..lead {
                if m.start == 0 {
                    break;
                }
                let line = self.line(m.start - 1) as usize;
                let from = self.starts[line - 1];
                if !self.body[from..m.start].trim().is_empty() {
                    break;
                }
                m.start = from;
            }
        }
        if m.end == self.body.len() || bytes[m.end - 1] == b'\n' {
            for _ in 0..trail {
                if m.end >= self.body.len() {
                    break;
                }
                let to = self.body[m.end..]
                    .find('\n')
                    .map_or(self.body.len(), |i| m.end + i + 1);
                if !self.body[m.end..to].trim().is_empty() {
                    break;
                }
                m.end = to;
            }
        }
        m
    }

    fn location(&self, m: &Match) -> serde_json::Value {
        let line = self.line(m.start);
        let end = self.line(m.end.saturating_sub(1).max(m.start));
        json!({
            "line": line,
            "column": self.column(m.start),
            "preview": self.preview(line),
            "suggestedLineRange": { "start": line, "end": end },
        })
    }

    fn locations(&self, found: &[Match]) -> Vec<serde_json::Value> {
        found
            .iter()
            .take(MAX_LOCATIONS)
            .map(|m| self.location(m))
            .collect()
    }

    fn preview(&self, line: u32) -> String {
        let s = self.starts[line as usize - 1];
        let e = self
            .starts
            .get(line as usize)
            .map_or(self.body.len(), |&n| n - 1);
        sdk::short_preview(self.body[s..e].trim_end_matches('\r'), 120)
    }

    /// NO_MATCH with the lines most like the target's first line (shared words), each with the
    /// range the target would cover there.
    fn no_match(&mut self, target: &str, shape: &Target, anchors: &Anchors) -> ToolError {
        let span = shape.lines() as u32;
        let first_line = shape.text.split('\n').find(|l| !l.is_empty()).unwrap_or("");
        let wanted = words(first_line);
        let view = self.norm().text.clone();
        let lines: Vec<&str> = view.split('\n').collect();
        let mut scored: Vec<(usize, u32)> = Vec::new();
        if !wanted.is_empty() {
            for (i, line) in lines.iter().enumerate() {
                let have = words(line);
                let shared = wanted.iter().filter(|w| have.contains(w)).count();
                if shared == 0 {
                    continue;
                }
                let union = wanted.len() + have.len() - shared;
                scored.push((shared * 1000 / union.max(1), i as u32 + 1));
            }
        }
        if let Some((lo, hi)) = anchors.line_range {
            scored.retain(|&(_, l)| l >= lo && l <= hi);
        }
        // Shared words seed the ranking; then lines within the current third-best character
        // distance compete (a length check prunes most), so `value_905` beats `value_1` for a
        // target about `value_9050`. The banded distance work is capped, so a target like
        // nothing in a large file costs a bounded scan.
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let width = first_line.chars().count();
        let in_range = |l: u32| anchors.line_range.is_none_or(|(lo, hi)| l >= lo && l <= hi);
        let mut best: Vec<(usize, u32)> = Vec::new();
        let mut budget = RANKING_CELLS;
        let mut consider = |best: &mut Vec<(usize, u32)>, line: u32, text: &str| -> bool {
            let chars = text.chars().count();
            let bound = if best.len() == NEAREST {
                best[NEAREST - 1].0
            } else {
                width.max(chars)
            };
            if text.is_empty() || chars.abs_diff(width) > bound || best.iter().any(|b| b.1 == line)
            {
                return true;
            }
            let cells = chars * (2 * bound + 1);
            if cells > budget {
                return false;
            }
            budget -= cells;
            if let Some(d) = fuzzy::distance(first_line, text, bound)
                && (best.len() < NEAREST || d < best[NEAREST - 1].0)
            {
                best.push((d, line));
                best.sort();
                best.truncate(NEAREST);
            }
            true
        };
        for &(_, line) in scored.iter().take(RANKED) {
            consider(
                &mut best,
                line,
                lines.get(line as usize - 1).copied().unwrap_or(""),
            );
        }
        if !wanted.is_empty() {
            for (i, text) in lines.iter().enumerate() {
                let line = i as u32 + 1;
                if in_range(line) && !consider(&mut best, line, text) {
                    break;
                }
            }
        }
        let ranked: Vec<(f64, u32)> = best
            .iter()
            .map(|&(d, line)| {
                let text = lines.get(line as usize - 1).copied().unwrap_or("");
                let longest = width.max(text.chars().count()).max(1);
                (1.0 - d as f64 / longest as f64, line)
            })
            .collect();
        let candidates: Vec<_> = ranked
            .iter()
            .take(NEAREST)
            .map(|&(similarity, line)| {
                json!({
                    "line": line,
                    "preview": self.preview(line),
                    "similarity": (similarity * 1000.0).round() / 1000.0,
                    "suggestedLineRange": { "start": line, "end": (line + span - 1).min(self.starts.len() as u32) },
                })
            })
            .collect();
        let suggestion = if candidates.is_empty() {
            "read the file (explore with paths) and copy the exact text to replace"
        } else {
            "the candidates are the lines most like the target's first line; read that range and copy it exactly"
        };
        let lines = target.lines().count().max(1);
        ToolError::new(
            codes::NO_MATCH,
            "targetString does not occur in the file (exact, whitespace, structural or fuzzy)",
        )
        .suggest(suggestion)
        .details(json!({ "candidates": candidates, "targetLines": lines }))
    }
}

/// Whitespace when the matched lines keep the target's indentation, structural when the
/// indentation differs (the replacement is carried into the file's), fuzzy when found by
/// distance.
fn classify(body: &str, start: usize, end: usize, target: &str, distance: Option<usize>) -> Match {
    let starts_line = start == 0 || body.as_bytes()[start - 1] == b'\n';
    let found_lines: Vec<&str> = body[start..end].split('\n').collect();
    let target_lines: Vec<&str> = target.trim_matches('\n').split('\n').collect();
    let same_indent = found_lines
        .iter()
        .zip(&target_lines)
        .enumerate()
        .all(|(i, (f, t))| {
            (i == 0 && !starts_line) || f.trim().is_empty() || leading(f) == leading(t)
        });
    let mode = match (distance, same_indent) {
        (Some(_), _) => Mode::Fuzzy,
        (None, false) => Mode::Structural,
        (None, true) => Mode::Whitespace,
    };
    Match {
        start,
        end,
        mode,
        distance,
        starts_line,
        hint_off: None,
    }
}

pub fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Exact => "exact",
        Mode::Whitespace => "whitespace",
        Mode::Structural => "structural",
        Mode::Fuzzy => "fuzzy",
    }
}

fn words(line: &str) -> Vec<&str> {
    let mut w: Vec<&str> = line
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    w.sort_unstable();
    w.dedup();
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(body: &str, target: &str) -> Result<Match, ToolError> {
        Matcher::new(body).locate(target, &Anchors::default(), FuzzyOptions::default())
    }

    #[test]
    fn exact_unique_match_is_located() {
        let m = find("a\nfoo(x)\nbar", "foo(x)").unwrap();
        assert_eq!((m.start, m.end, m.mode), (2, 8, Mode::Exact));
    }

    #[test]
    fn duplicates_list_every_location() {
        let err = find("x = 1\ny = 2\nx = 1\n", "x = 1").unwrap_err();
        assert_eq!(err.code, "MULTIPLE_MATCHES");
        let d = err.details.unwrap();
        assert_eq!(d["count"], 2);
        assert_eq!(d["matches"][1]["line"], 3);
        assert_eq!(d["matches"][1]["suggestedLineRange"]["end"], 3);
    }

    #[test]
    fn anchors_pick_one_of_several() {
        let body = "fn a() {\n    x = 1;\n}\nfn b() {\n    x = 1;\n}\n";
        let mut m = Matcher::new(body);
        let by_range = m
            .locate(
                "x = 1;",
                &Anchors {
                    line_range: Some((4, 6)),
                    ..Anchors::default()
                },
                FuzzyOptions::default(),
            )
            .unwrap();
        assert_eq!(m.line(by_range.start), 5);
        let by_before = m
            .locate(
                "x = 1;",
                &Anchors {
                    before: Some("fn a() {"),
                    ..Anchors::default()
                },
                FuzzyOptions::default(),
            )
            .unwrap();
        assert_eq!(m.line(by_before.start), 2);
        let err = m
            .locate(
                "x = 1;",
                &Anchors {
                    line_range: Some((3, 4)),
                    ..Anchors::default()
                },
                FuzzyOptions::default(),
            )
            .unwrap_err();
        assert_eq!(err.code, "ANCHOR_FAILED");
    }

    #[test]
    fn drifted_inner_whitespace_matches_in_whitespace_mode() {
        let body = "fn a() {\n    let  x =  1;   \n}\n";
        let m = find(body, "    let x = 1;\n").unwrap();
        assert_eq!(m.mode, Mode::Whitespace);
        assert_eq!(&body[m.start..m.end], "    let  x =  1;   \n");
    }

    #[test]
    fn other_depth_matches_structurally() {
        let body = "impl A {\n        fn f() {\n            g();\n        }\n}\n";
        let m = find(body, "fn f() {\n    g();\n}").unwrap();
        assert_eq!(m.mode, Mode::Structural);
        assert_eq!(
            &body[m.start..m.end],
            "fn f() {\n            g();\n        }"
        );
    }

    #[test]
    fn whitespace_only_fuzzy_tolerates_spacing_inside_tokens() {
        let body = "call(a,b);\nother();\n";
        let m = find(body, "call(a, b);").unwrap();
        assert_eq!((m.mode, m.distance), (Mode::Fuzzy, Some(1)));
        assert_eq!(&body[m.start..m.end], "call(a,b);");
    }

    #[test]
    fn typos_need_whitespace_only_off_and_stay_within_the_budget() {
        let body = "let total = compute(items);\n";
        assert_eq!(
            find(body, "let totl = compute(items);").unwrap_err().code,
            "NO_MATCH"
        );
        let m = Matcher::new(body)
            .locate(
                "let totl = compute(items);",
                &Anchors::default(),
                FuzzyOptions {
                    whitespace_only: false,
                    ..FuzzyOptions::default()
                },
            )
            .unwrap();
        assert_eq!((m.mode, m.distance), (Mode::Fuzzy, Some(1)));
    }

    #[test]
    fn a_short_target_far_from_everything_is_unsafe() {
        let err = Matcher::new("abcdefgh\n")
            .locate(
                "abXYZfgh",
                &Anchors::default(),
                FuzzyOptions {
                    whitespace_only: false,
                    max_distance: 5,
                    enabled: true,
                },
            )
            .unwrap_err();
        assert_eq!(err.code, "FUZZY_UNSAFE");
    }

    #[test]
    fn no_match_points_at_near_misses() {
        let err = find("fn a() {\n    let x = 1;\n}\n", "let x = 2;\n  }").unwrap_err();
        assert_eq!(err.code, "NO_MATCH");
        let d = err.details.unwrap();
        assert_eq!(d["candidates"][0]["line"], 2);
        assert_eq!(d["candidates"][0]["suggestedLineRange"]["end"], 3);
    }

    #[test]
    fn near_misses_rank_by_characters_after_words() {
        let body: String = (0..1000)
            .map(|n| format!("let value_{n} = compute({n});\n"))
            .collect();
        let err = find(&body, "let value_9050 = compute(9050);").unwrap_err();
        let d = err.details.unwrap();
        let previews: Vec<&str> = d["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["preview"].as_str().unwrap())
            .collect();
        assert!(previews.contains(&"let value_905 = compute(905);"), "{d}");
        assert!(
            d["candidates"][0]["similarity"].as_f64().unwrap() > 0.9,
            "{d}"
        );
    }

    #[test]
    fn empty_target_only_fills_an_empty_file() {
        assert_eq!(find("abc", "").unwrap_err().code, "INVALID_ARGS");
        assert_eq!(find("", "").unwrap().end, 0);
    }

    #[test]
    fn columns_count_chars_not_bytes() {
        let m = Matcher::new("é x");
        assert_eq!(m.column(3), 3);
    }
}
