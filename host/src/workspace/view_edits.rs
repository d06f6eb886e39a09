//! Edits made against a file's view, carried back to its raw bytes.
//!
//! Plugins read text as its view: secret-looking values replaced by markers
//! ([`super::secrets`]). A change comes back as whole new content based on that view. Lines the
//! change left alone are copied from the raw file, so the values in them stay; a changed stretch
//! that keeps a marker gets its value back in the marker's place; a marker the change dropped is
//! a value deleted. Which of these happens depends on the view and the new content only, never
//! on a hidden value, so no sequence of edits or dry runs can test a guess at one.

use super::secrets::Span;
use similar::{Algorithm, DiffTag};
use std::time::{Duration, Instant};

/// How long the line diff may refine before it settles for coarser stretches (still correct:
/// a coarser stretch only copies less from the raw file verbatim).
const DIFF_DEADLINE: Duration = Duration::from_secs(2);

/// The raw content `new` (written against `view`, the view of `raw` with `spans` hidden)
/// stands for: unchanged lines from `raw`, changed ones from `new` with each kept marker
/// replaced by the value it hid. A marker in `new` with no counterpart in the stretch it
/// replaces stays literal text (the caller refuses to write those).
pub fn carry_back(raw: &[u8], spans: &[Span], view: &[u8], new: &[u8]) -> Vec<u8> {
    if spans.is_empty() {
        return new.to_vec();
    }
    let placed = place(spans);
    let old_lines: Vec<&[u8]> = view.split_inclusive(|&b| b == b'\n').collect();
    let new_lines: Vec<&[u8]> = new.split_inclusive(|&b| b == b'\n').collect();
    let line_start = offsets(&old_lines);
    let new_start = offsets(&new_lines);
    let deadline = Instant::now() + DIFF_DEADLINE;
    let ops = similar::capture_diff_slices_deadline(
        Algorithm::Myers,
        &old_lines,
        &new_lines,
        Some(deadline),
    );
    let mut out = Vec::with_capacity(raw.len().max(new.len()));
    for op in ops {
        let (tag, old, fresh) = op.as_tag_tuple();
        let (from, to) = (line_start[old.start], line_start[old.end]);
        if tag == DiffTag::Equal {
            out.extend_from_slice(&raw[to_raw(&placed, from)..to_raw(&placed, to)]);
            continue;
        }
        let hidden: Vec<&Placed> = placed
            .iter()
            .filter(|p| p.view_start >= from && p.view_start < to)
            .collect();
        restore(
            &new[new_start[fresh.start]..new_start[fresh.end]],
            &hidden,
            raw,
            &mut out,
        );
    }
    out
}

/// A span with its place in the view.
struct Placed<'a> {
    span: &'a Span,
    view_start: usize,
    /// Bytes the view has more than the raw text up to this span's end.
    shift_after: isize,
}

fn place(spans: &[Span]) -> Vec<Placed<'_>> {
    let mut shift = 0isize;
    spans
        .iter()
        .map(|span| {
            let view_start = (span.raw.start as isize + shift) as usize;
            shift += span.marker.len() as isize - span.raw.len() as isize;
            Placed {
                span,
                view_start,
                shift_after: shift,
            }
        })
        .collect()
}

/// Where each line starts, and the end.
fn offsets(lines: &[&[u8]]) -> Vec<usize> {
    let mut at = 0;
    let mut out = Vec::with_capacity(lines.len() + 1);
    out.push(0);
    for line in lines {
        at += line.len();
        out.push(at);
    }
    out
}

/// The raw offset of a view offset outside every marker (a line boundary).
fn to_raw(placed: &[Placed<'_>], view_at: usize) -> usize {
    let before = placed.partition_point(|p| p.view_start < view_at);
    let shift = before.checked_sub(1).map_or(0, |i| placed[i].shift_after);
    (view_at as isize - shift) as usize
}

/// Writes `stretch` with each marker that matches the next unused hidden value of the
/// replaced stretch (same marker, in order) replaced by that value.
fn restore(stretch: &[u8], hidden: &[&Placed<'_>], raw: &[u8], out: &mut Vec<u8>) {
    let mut next = 0;
    let mut at = 0;
    while at < stretch.len() {
        let found = hidden[next..]
            .iter()
            .position(|p| stretch[at..].starts_with(p.span.marker.as_bytes()));
        match found {
            Some(i) => {
                let p = hidden[next + i];
                out.extend_from_slice(&raw[p.span.raw.clone()]);
                at += p.span.marker.len();
                next += i + 1;
            }
            None => {
                out.push(stretch[at]);
                at += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::secrets;

    const TOKEN: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";

    fn edit(raw: &str, change: impl Fn(&str) -> String) -> String {
        let spans = secrets::spans(raw.as_bytes());
        let view = secrets::view(raw.as_bytes(), &spans);
        let new = change(std::str::from_utf8(&view).unwrap());
        String::from_utf8(carry_back(raw.as_bytes(), &spans, &view, new.as_bytes())).unwrap()
    }

    #[test]
    fn lines_left_alone_keep_their_values() {
        let raw = format!("a = 1\ntoken = \"{TOKEN}\"\nb = 2\n");
        let out = edit(&raw, |v| v.replace("b = 2", "b = 3"));
        assert_eq!(out, format!("a = 1\ntoken = \"{TOKEN}\"\nb = 3\n"));
    }

    #[test]
    fn a_kept_marker_gets_its_value_back() {
        let raw = format!("x = 1; token = \"{TOKEN}\"\n");
        let out = edit(&raw, |v| v.replace("x = 1", "x = 2"));
        assert_eq!(out, format!("x = 2; token = \"{TOKEN}\"\n"));
    }

    #[test]
    fn a_dropped_marker_is_a_deleted_value() {
        let raw = format!("keep\ntoken = \"{TOKEN}\"\n");
        assert_eq!(edit(&raw, |v| v.replace(&v[5..], "")), "keep\n");
    }

    #[test]
    fn a_marker_moved_elsewhere_stays_literal() {
        let raw = format!("token = \"{TOKEN}\"\nother\n");
        let out = edit(&raw, |v| {
            let marker = "[REDACTED:github-token]";
            format!("{}print(\"{marker}\")\n", v.replace("other\n", ""))
        });
        assert!(!out.ends_with(&format!("print(\"{TOKEN}\")\n")), "{out}");
        assert!(out.contains("print(\"[REDACTED:github-token]\")"), "{out}");
    }
}
