//! Carrying a replacement into the file when its target matched only up to whitespace (the
//! whitespace, structural and fuzzy modes). The agent quoted the target in its own frame (another
//! depth, tabs for spaces, some lines drifted, trailing blanks dropped); the replacement is
//! usually in that same frame, sometimes already in the file's.
//!
//! Nothing here is a constant shift. The target's lines are paired with the file lines they
//! matched, and the replacement's lines with the target's:
//! - a replacement line the agent left as it quoted it is the file's line, byte for byte;
//! - a changed or added line takes the file's indentation of a target line indented alike;
//!   else the reading (agent columns per file level, from one matched pair) most matched lines
//!   agree with, so a line quoted a column or two off is outvoted rather than followed;
//! - a line no reading can place (readings tied, or left of column 0) is an error naming it,
//!   not a guess;
//! - a replacement already written in the file's frame is kept as it is.

use crate::normalize::squash;
use crate::text::{IndentStyle, indent_style};
use similar::{Algorithm, DiffOp, capture_diff_slices};
use std::cmp::Reverse;

const TAB_COLUMNS: usize = 4;

/// A replacement line whose indentation the matched lines cannot place.
#[derive(Debug, Clone, PartialEq)]
pub struct Unplaceable {
    /// 1-based line of the replacement.
    pub line: usize,
    pub text: String,
    pub reason: String,
}

/// The replacement as it goes into the file, for a target that matched `found` (the file's
/// text of the match) only up to whitespace. `starts_line` is false when the match begins
/// mid-line: the replacement's first line then continues that line as written.
pub fn carry(
    target: &str,
    found: &str,
    replacement: &str,
    starts_line: bool,
    file: IndentStyle,
) -> Result<String, Unplaceable> {
    let t: Vec<&str> = target.split('\n').collect();
    let f: Vec<&str> = found.split('\n').collect();
    let r: Vec<&str> = replacement.split('\n').collect();
    let t_to_f = pairs(&t, &f);
    let r_to_t = pairs(&r, &t);
    let partial = |i: usize| i == 0 && !starts_line;
    let map = Map::new(
        t_to_f
            .iter()
            .enumerate()
            .filter_map(|(i, k)| k.map(|k| (i, k)))
            .filter(|&(i, k)| !partial(i) && !t[i].trim().is_empty() && !f[k].trim().is_empty())
            .map(|(i, k)| (leading(t[i]), leading(f[k]))),
        indent_style(&format!("{target}\n{replacement}")),
        file,
    );
    let in_file_frame = file_frame(&t, &f, &r, &t_to_f, &r_to_t, starts_line);
    let mut out = Vec::with_capacity(r.len());
    for (j, line) in r.iter().enumerate() {
        if partial(j) {
            out.push(line.to_string());
            continue;
        }
        let partner = r_to_t[j].and_then(|i| Some((i, t_to_f[i]?)));
        if let Some((i, k)) = partner.filter(|&(i, _)| !partial(i))
            && line.trim() == t[i].trim()
        {
            let ws = leading(line);
            let frame = if in_file_frame { f[k] } else { t[i] };
            if line.trim().is_empty() || ws == leading(frame) {
                out.push(f[k].to_string());
            } else if in_file_frame {
                // Moved on purpose, and already where the file's lines are.
                out.push(format!("{ws}{}", f[k].trim_start_matches([' ', '\t'])));
            } else {
                let placed = map
                    .place(ws)
                    .map_err(|reason| unplaceable(j, line, reason))?;
                out.push(format!("{placed}{}", f[k].trim_start_matches([' ', '\t'])));
            }
            continue;
        }
        if line.trim().is_empty() || in_file_frame {
            out.push(line.to_string());
            continue;
        }
        let placed = map
            .place(leading(line))
            .map_err(|reason| unplaceable(j, line, reason))?;
        out.push(format!("{placed}{}", line.trim_start_matches([' ', '\t'])));
    }
    Ok(out.join("\n"))
}

fn unplaceable(j: usize, line: &str, reason: String) -> Unplaceable {
    Unplaceable {
        line: j + 1,
        text: line.to_string(),
        reason,
    }
}

/// For each line of `a`, the line of `b` with the same text up to whitespace, in order (the
/// longest common run of lines).
fn pairs(a: &[&str], b: &[&str]) -> Vec<Option<usize>> {
    let a_view: Vec<String> = a.iter().map(|l| squash(l)).collect();
    let b_view: Vec<String> = b.iter().map(|l| squash(l)).collect();
    let mut out = vec![None; a.len()];
    for op in capture_diff_slices(Algorithm::Myers, &a_view, &b_view) {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            for d in 0..len {
                out[old_index + d] = Some(new_index + d);
            }
        }
    }
    out
}

/// Whether the replacement was written in the file's frame rather than the target's: its
/// unchanged lines carry the file's indentation where target and file differ (its first and
/// last such lines when they agree, else most of them). Without such lines, its first line
/// decides.
fn file_frame(
    t: &[&str],
    f: &[&str],
    r: &[&str],
    t_to_f: &[Option<usize>],
    r_to_t: &[Option<usize>],
    starts_line: bool,
) -> bool {
    // true: the line has the file's indentation; false: the target's.
    let mut votes: Vec<bool> = Vec::new();
    for (j, line) in r.iter().enumerate() {
        let Some((i, k)) = r_to_t[j].and_then(|i| Some((i, t_to_f[i]?))) else {
            continue;
        };
        if (i == 0 && !starts_line) || line.trim().is_empty() || leading(t[i]) == leading(f[k]) {
            continue;
        }
        if leading(line) == leading(f[k]) {
            votes.push(true);
        } else if leading(line) == leading(t[i]) {
            votes.push(false);
        }
    }
    // The replacement's first and last kept lines are the surest (lines between may have been
    // re-indented on purpose, by chance to the other frame); when they disagree, the majority.
    match (votes.first(), votes.last()) {
        (Some(a), Some(b)) if a == b => return *a,
        (Some(_), Some(_)) => {
            let file = votes.iter().filter(|v| **v).count();
            return file * 2 > votes.len();
        }
        _ => {}
    }
    let first = |lines: &[&str], skip: usize| {
        lines
            .iter()
            .skip(skip)
            .find(|l| !l.trim().is_empty())
            .map(|l| leading(l).to_string())
    };
    let skip = usize::from(!starts_line);
    match (first(r, skip), first(t, skip), first(f, skip)) {
        (Some(r), Some(t), Some(f)) => r == f && r != t,
        _ => false,
    }
}

/// Target indentation -> file indentation, learnt from the matched lines.
struct Map {
    keys: Vec<Key>,
    agent: IndentStyle,
    file: IndentStyle,
    /// The reading most matched lines agree with, when one outweighs every reading that
    /// disagrees with it.
    model: Option<Model>,
}

/// One target indentation: its columns, the file indentation most of its lines had, and how
/// many lines said so.
struct Key {
    target: String,
    cols: usize,
    file: String,
    lines: usize,
}

/// A reading of the agent's indentation: `step` agent columns make one file level, counted
/// from the key `anchor`.
#[derive(Clone, Copy)]
struct Model {
    step: usize,
    anchor: usize,
}

impl Map {
    fn new<'a>(
        pairs: impl Iterator<Item = (&'a str, &'a str)>,
        agent: IndentStyle,
        file: IndentStyle,
    ) -> Self {
        // target indentation -> [(file indentation, count)] in first-seen order
        let mut seen: Vec<(String, Vec<(String, usize)>)> = Vec::new();
        for (t, f) in pairs {
            let slot = match seen.iter().position(|(k, _)| k == t) {
                Some(p) => &mut seen[p].1,
                None => {
                    seen.push((t.to_string(), Vec::new()));
                    &mut seen.last_mut().expect("pushed").1
                }
            };
            match slot.iter_mut().find(|(v, _)| v == f) {
                Some((_, n)) => *n += 1,
                None => slot.push((f.to_string(), 1)),
            }
        }
        let mut keys: Vec<Key> = seen
            .into_iter()
            .map(|(target, values)| {
                let lines = values.iter().map(|(_, n)| *n).max().unwrap_or(0);
                let file = values
                    .into_iter()
                    .find(|(_, n)| *n == lines)
                    .map(|(v, _)| v)
                    .unwrap_or_default();
                let cols = columns(&target);
                Key {
                    target,
                    cols,
                    file,
                    lines,
                }
            })
            .collect();
        keys.sort_by_key(|k| k.cols);
        let mut map = Self {
            keys,
            agent,
            file,
            model: None,
        };
        map.model = map.best_model();
        map
    }

    /// The reading (agent step, anchor) that the most matched lines agree with, more than any
    /// reading that disagrees with it. The preferred step (the file's when the agent indents
    /// with the same kind) is tried first. Lines that disagree drifted.
    fn best_model(&self) -> Option<Model> {
        let preferred = self.preferred_step();
        let best =
            |steps: &mut dyn Iterator<Item = usize>, share: usize| -> Option<(usize, Model)> {
                let mut models: Vec<(usize, usize, Model)> = Vec::new();
                for step in steps {
                    let total: usize = self.keys.iter().map(|k| self.weight(k, step)).sum();
                    for anchor in 0..self.keys.len() {
                        let model = Model { step, anchor };
                        let support: usize = self
                            .keys
                            .iter()
                            .filter(|k| self.fits(model, k))
                            .map(|k| self.weight(k, step))
                            .sum();
                        models.push((support, total, model));
                    }
                }
                let &(support, total, top) = models
                    .iter()
                    .max_by_key(|(s, _, m)| (*s, Reverse(m.anchor)))?;
                // A plurality: no reading that disagrees about the top one's anchor is as strong.
                let rival = models
                    .iter()
                    .filter(|(_, _, m)| !self.fits(*m, &self.keys[top.anchor]))
                    .map(|(s, _, _)| *s)
                    .max()
                    .unwrap_or(0);
                (support > rival && support * 3 > total * share).then_some((support, top))
            };
        // The preferred step needs a plurality over a third of the lines; another step, which
        // could fit drifted lines by chance, two thirds of them.
        best(&mut std::iter::once(preferred), 1)
            .or_else(|| best(&mut (1..=8).filter(|&s| s != preferred), 2))
            .map(|(_, m)| m)
    }

    /// A key's say in choosing a reading: its lines, doubled when both its indentations sit
    /// on their level grids (a line quoted a column or two off is weaker evidence).
    fn weight(&self, key: &Key, step: usize) -> usize {
        let on_grid = key.cols.is_multiple_of(step)
            && columns(&key.file).is_multiple_of(self::step(self.file));
        key.lines * if on_grid { 2 } else { 1 }
    }

    fn fits(&self, model: Model, key: &Key) -> bool {
        self.moved(model, key.cols) == Some(columns(&key.file))
    }

    /// The file indentation for a line the agent indented with `ws`: the file's for a target
    /// indentation alike; else the majority reading's; without one (the matched lines disagree
    /// about evenly), every target indentation's reading, the one most lines give winning. A
    /// tie is a guess, refused.
    fn place(&self, ws: &str) -> Result<String, String> {
        let w = columns(ws);
        if let Some(k) = self.keys.iter().find(|k| k.target == ws) {
            return Ok(k.file.clone());
        }
        if let Some(model) = self.model {
            return self.read(model, ws, w);
        }
        if self.keys.is_empty() {
            return Ok(ws.to_string());
        }
        // (file columns, lines that read it so, a model reading it so)
        let mut readings: Vec<(usize, usize, Model)> = Vec::new();
        for anchor in 0..self.keys.len() {
            let model = Model {
                step: self.preferred_step(),
                anchor,
            };
            let Some(cols) = self.moved(model, w) else {
                continue;
            };
            let lines = self.weight(&self.keys[anchor], model.step);
            match readings.iter_mut().find(|r| r.0 == cols) {
                Some(r) => r.1 += lines,
                None => readings.push((cols, lines, model)),
            }
        }
        readings.sort_by_key(|r| Reverse(r.1));
        match readings.as_slice() {
            [] => Err(format!(
                "it is indented {w} columns, left of where the file's lines can go"
            )),
            [a, b, ..] if a.1 == b.1 => Err(format!(
                "it is indented {w} columns, and the target lines the file holds at different offsets read that as {} or {} columns",
                a.0.min(b.0),
                a.0.max(b.0)
            )),
            [a, ..] => self.read(a.2, ws, w),
        }
    }

    /// `ws` (of `w` columns) read by `model`, in the file's style.
    fn read(&self, model: Model, ws: &str, w: usize) -> Result<String, String> {
        let from = &self.keys[model.anchor];
        if from.cols <= w
            && self.same_kind()
            && model.step == step(self.file)
            && let Some(extra) = ws.strip_prefix(from.target.as_str())
        {
            return Ok(format!("{}{extra}", from.file));
        }
        let Some(cols) = self.moved(model, w) else {
            return Err(format!(
                "it is indented {w} columns, left of where the file's lines can go"
            ));
        };
        let rest = (w as isize - from.cols as isize).rem_euclid(model.step as isize) as usize;
        Ok(match self.file {
            IndentStyle::Tabs => {
                let rest = rest.min(cols);
                let level_cols = cols - rest;
                "\t".repeat(level_cols / TAB_COLUMNS) + &" ".repeat(level_cols % TAB_COLUMNS + rest)
            }
            IndentStyle::Spaces(_) => " ".repeat(cols),
        })
    }

    /// File columns for agent columns `w` under `model`: levels of its step from the anchor
    /// become levels of the file's step; columns past the last level stay as they are.
    fn moved(&self, model: Model, w: usize) -> Option<usize> {
        let from = &self.keys[model.anchor];
        let rel = w as isize - from.cols as isize;
        let levels = rel.div_euclid(model.step as isize);
        let rest = rel.rem_euclid(model.step as isize);
        let cols = columns(&from.file) as isize + levels * step(self.file) as isize + rest;
        (cols >= 0).then_some(cols as usize)
    }

    /// Agent columns per file level unless the matched lines say otherwise: the file's step
    /// when the agent indents with the same kind (spaces or tabs), else its own style's.
    fn preferred_step(&self) -> usize {
        if self.same_kind() {
            step(self.file)
        } else {
            step(self.agent)
        }
    }

    fn same_kind(&self) -> bool {
        matches!(
            (self.agent, self.file),
            (IndentStyle::Tabs, IndentStyle::Tabs)
                | (IndentStyle::Spaces(_), IndentStyle::Spaces(_))
        )
    }
}

fn step(style: IndentStyle) -> usize {
    match style {
        IndentStyle::Tabs => TAB_COLUMNS,
        IndentStyle::Spaces(n) => n.max(1),
    }
}

fn columns(ws: &str) -> usize {
    ws.chars()
        .map(|c| if c == '\t' { TAB_COLUMNS } else { 1 })
        .sum()
}

/// The leading whitespace of `line`.
pub fn leading(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// Target and replacement without the blank lines both begin or both end with: those are
/// context the agent kept, and matching them again would only duplicate them. Blank lines only
/// the target has stay (the agent means to remove them).
pub fn trim_shared_blank_ends<'a>(target: &'a str, replacement: &'a str) -> (&'a str, &'a str) {
    let t: Vec<&str> = target.split_inclusive('\n').collect();
    let r: Vec<&str> = replacement.split_inclusive('\n').collect();
    let t_content = t.iter().filter(|l| !l.trim().is_empty()).count();
    if t_content == 0 {
        return (target, replacement);
    }
    let lead = t
        .iter()
        .take_while(|l| l.trim().is_empty())
        .count()
        .min(r.iter().take_while(|l| l.trim().is_empty()).count());
    let trail = t
        .iter()
        .rev()
        .take_while(|l| l.trim().is_empty())
        .count()
        .min(r.iter().rev().take_while(|l| l.trim().is_empty()).count())
        .min(r.len() - lead);
    // A trailing blank "line" without a newline is whitespace after the last newline.
    let cut = |lines: &[&str], text: &'a str| -> &'a str {
        let start: usize = lines[..lead].iter().map(|l| l.len()).sum();
        let end: usize = text.len()
            - lines[lines.len() - trail..]
                .iter()
                .map(|l| l.len())
                .sum::<usize>();
        &text[start..end.max(start)]
    };
    (cut(&t, target), cut(&r, replacement))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spaces(target: &str, found: &str, replacement: &str) -> String {
        carry(target, found, replacement, true, IndentStyle::Spaces(4)).unwrap()
    }

    #[test]
    fn a_uniform_shift_moves_every_line() {
        assert_eq!(
            spaces(
                "if x:\n    y()\n",
                "        if x:\n            y()\n",
                "if x:\n    y()\n    z()\n"
            ),
            "        if x:\n            y()\n            z()\n"
        );
    }

    #[test]
    fn unchanged_lines_are_the_files_bytes() {
        // Only some target lines drifted, and the replacement's context drifted alike.
        let found = "    a = 1   \n    if a:\n        b()\n";
        let target = "   a = 1\n    if a:\n          b()\n";
        let replacement = "   a = 1\n    if a:\n          b()\n        c()\n";
        assert_eq!(
            spaces(target, found, replacement),
            "    a = 1   \n    if a:\n        b()\n        c()\n"
        );
    }

    #[test]
    fn a_replacement_in_the_files_frame_stays() {
        let found = "        x = 1\n        y = 2\n";
        assert_eq!(
            spaces("x = 1\ny = 2\n", found, "        x = 1\n        y = 3\n"),
            "        x = 1\n        y = 3\n"
        );
    }

    #[test]
    fn re_indented_lines_keep_their_new_depth() {
        // Wrapping a line in a block: the moved line is placed a level deeper in the file.
        let found = "    a()\n    b()\n";
        assert_eq!(
            spaces("a()\nb()\n", found, "a()\nif c:\n    b()\n"),
            "    a()\n    if c:\n        b()\n"
        );
    }

    #[test]
    fn a_block_wrapped_by_exactly_the_drift_stays_in_the_targets_frame() {
        // Quoted 4 columns shallower; the middle lines moved 4 deeper into a new block: they
        // land where the file's own lines were, and still must move with the rest.
        let found = "    a = 1\n    b = 2\n    c = 3\n    d = 4\n";
        let got = spaces(
            "a = 1\nb = 2\nc = 3\nd = 4\n",
            found,
            "a = 1\nif x:\n    b = 2\n    c = 3\nd = 4\n",
        );
        assert_eq!(
            got,
            "    a = 1\n    if x:\n        b = 2\n        c = 3\n    d = 4\n"
        );
    }

    #[test]
    fn tabs_and_spaces_at_several_depths() {
        let found = "\tif x {\n\t\ty();\n\t}\n";
        let got = carry(
            "if x {\n    y();\n}\n",
            found,
            "if x {\n    y();\n    if z {\n        w();\n    }\n}\n",
            true,
            IndentStyle::Tabs,
        )
        .unwrap();
        assert_eq!(
            got,
            "\tif x {\n\t\ty();\n\t\tif z {\n\t\t\tw();\n\t\t}\n\t}\n"
        );
    }

    #[test]
    fn a_line_between_differently_moved_lines_is_refused() {
        // Two depths say the file moved lines by 4, two say by 8: a line between is a guess.
        let found = "    a\n        b\n                c\n                    d\n";
        let err = carry(
            "a\n    b\n        c\n            d\n",
            found,
            "a\n    b\n      x\n        c\n            d\n",
            true,
            IndentStyle::Spaces(4),
        )
        .unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.reason.contains("different offsets"), "{err:?}");
    }

    #[test]
    fn the_reading_most_lines_give_wins_over_a_drifted_neighbour() {
        // The removed line drifted from 8 to 6 columns; the added lines keep the true 8.
        let found = "def f(a,\n        b):\n    return a\n";
        let got = spaces(
            "def f(a,\n      b):\n    return a\n",
            found,
            "def f(a,\n        b,\n        c):\n    return a\n",
        );
        assert_eq!(got, "def f(a,\n        b,\n        c):\n    return a\n");
    }

    #[test]
    fn a_dedent_past_column_zero_is_refused() {
        let found = "a\n    b\n";
        let err = carry(
            "    a\n        b\n",
            found,
            "    a\nc\n",
            true,
            IndentStyle::Spaces(4),
        )
        .unwrap_err();
        assert_eq!(err.line, 2);
    }

    #[test]
    fn a_mid_line_first_line_is_kept() {
        let got = carry("x(1,", "x(1,", "x(1,\n2)", false, IndentStyle::Spaces(4)).unwrap();
        assert_eq!(got, "x(1,\n2)");
    }

    #[test]
    fn shared_blank_ends_are_dropped_from_both() {
        assert_eq!(
            trim_shared_blank_ends("\n    a\n\n", "\n    b\n\n"),
            ("    a\n", "    b\n")
        );
        assert_eq!(trim_shared_blank_ends("\na\n", "b\n"), ("\na\n", "b\n"));
        assert_eq!(trim_shared_blank_ends("\n\n", "x"), ("\n\n", "x"));
    }
}
