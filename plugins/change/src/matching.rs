//! Finding the one place an edit applies, or explaining why there is none or more than one.

use sdk::{ToolError, codes};
use serde_json::json;

/// Where a unique match starts.
#[derive(Debug, PartialEq)]
pub struct Found {
    pub start: usize,
    pub line: u32,
    pub column: u32,
}

/// A failed match, before the file it concerns is known.
#[derive(Debug)]
pub struct MatchError(ToolError);

impl MatchError {
    /// The error with the file named in its message and details.
    pub fn details_with_file(self, path: &str) -> ToolError {
        let mut err = self.0;
        err.message = format!("{path}: {}", err.message);
        if let Some(serde_json::Value::Object(map)) = err.details.as_mut() {
            map.insert("filePath".into(), path.into());
        }
        err
    }
}

/// The single exact occurrence of `target` in `text`. Zero occurrences give NO_MATCH with the
/// lines that hold the target's first line (the usual near-miss: indentation or a changed
/// neighbour); several give MULTIPLE_MATCHES with every location.
pub fn find_unique(text: &str, target: &str) -> Result<Found, MatchError> {
    if target.is_empty() {
        return Err(MatchError(
            ToolError::new(codes::INVALID_ARGS, "targetString is empty")
                .suggest("quote the exact text to replace, with a line or two of context"),
        ));
    }
    let starts: Vec<usize> = text.match_indices(target).map(|(i, _)| i).collect();
    match starts.as_slice() {
        [start] => Ok(locate(text, *start)),
        [] => Err(MatchError(no_match(text, target))),
        many => {
            let locations: Vec<_> = many
                .iter()
                .map(|&s| {
                    let at = locate(text, s);
                    json!({ "line": at.line, "column": at.column, "preview": line_preview(text, at.line) })
                })
                .collect();
            Err(MatchError(
                ToolError::new(
                    codes::MULTIPLE_MATCHES,
                    format!("targetString occurs {} times", many.len()),
                )
                .suggest("add surrounding lines to targetString so it occurs exactly once")
                .details(json!({ "count": many.len(), "matches": locations })),
            ))
        }
    }
}

fn no_match(text: &str, target: &str) -> ToolError {
    let first = target
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let candidates: Vec<_> = if first.is_empty() {
        Vec::new()
    } else {
        text.lines()
            .enumerate()
            .filter(|(_, l)| l.contains(first))
            .take(5)
            .map(|(i, l)| {
                let line = i as u32 + 1;
                let span = target.lines().count().max(1) as u32;
                json!({
                    "line": line,
                    "preview": sdk::short_preview(l, 120),
                    "suggestedLineRange": { "start": line, "end": line + span - 1 }
                })
            })
            .collect()
    };
    let suggestion = if candidates.is_empty() {
        "read the file (explore with paths) and copy the exact text to replace"
    } else {
        "the first line of targetString occurs at the candidates listed; read that range and copy it exactly"
    };
    ToolError::new(codes::NO_MATCH, "targetString does not occur in the file")
        .suggest(suggestion)
        .details(json!({ "candidates": candidates }))
}

fn locate(text: &str, start: usize) -> Found {
    let before = &text[..start];
    let line = before.matches('\n').count() as u32 + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = text[line_start..start].chars().count() as u32 + 1;
    Found {
        start,
        line,
        column,
    }
}

fn line_preview(text: &str, line: u32) -> String {
    text.lines()
        .nth(line as usize - 1)
        .map(|l| sdk::short_preview(l, 120))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unique_match_is_located() {
        let found = find_unique("a\nfoo(x)\nbar", "foo(x)").unwrap();
        assert_eq!(
            found,
            Found {
                start: 2,
                line: 2,
                column: 1
            }
        );
    }

    #[test]
    fn duplicates_list_every_location() {
        let err = find_unique("x = 1\ny = 2\nx = 1\n", "x = 1")
            .unwrap_err()
            .details_with_file("f.py");
        assert_eq!(err.code, "MULTIPLE_MATCHES");
        let details = err.details.unwrap();
        assert_eq!(details["count"], 2);
        assert_eq!(details["matches"][1]["line"], 3);
        assert_eq!(details["filePath"], "f.py");
    }

    #[test]
    fn no_match_points_at_near_misses() {
        let err = find_unique("fn a() {\n    let x = 1;\n}\n", "let x = 1;\n  }")
            .unwrap_err()
            .0;
        assert_eq!(err.code, "NO_MATCH");
        let details = err.details.unwrap();
        assert_eq!(details["candidates"][0]["line"], 2);
        assert_eq!(details["candidates"][0]["suggestedLineRange"]["end"], 3);
    }

    #[test]
    fn empty_target_is_invalid() {
        assert_eq!(find_unique("abc", "").unwrap_err().0.code, "INVALID_ARGS");
    }

    #[test]
    fn columns_count_chars_not_bytes() {
        assert_eq!(find_unique("é x", "x").unwrap().column, 3);
    }
}
