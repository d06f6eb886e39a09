//! A file's skeleton: each definition's signature and the first line of its doc comment, with
//! line numbers, bodies elided. The cheapest faithful picture of a file for an agent.

use super::Symbol;

/// Renders `symbols` (in source order) as one line per doc summary and signature:
/// `  12| /// Opens the store.` then `13-40| pub fn open(...)`, nested members indented.
pub fn render(symbols: &[Symbol]) -> String {
    let mut out = String::new();
    let mut open: Vec<u32> = Vec::new(); // end lines of enclosing definitions
    for symbol in symbols {
        while open.last().is_some_and(|end| symbol.start_line > *end) {
            open.pop();
        }
        let indent = "    ".repeat(open.len());
        if let Some(doc) = &symbol.doc {
            let first = doc.text.lines().next().unwrap_or("").trim();
            if !first.is_empty() {
                out.push_str(&format!("{:>9}| {indent}// {first}\n", doc.start_line));
            }
        }
        let span = format!("{}-{}", symbol.start_line, symbol.end_line);
        out.push_str(&format!("{span:>9}| {indent}{}\n", symbol.signature));
        open.push(symbol.end_line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Language, extract};

    #[test]
    fn nests_members_and_keeps_doc_summaries() {
        let src = "/// A point.\nstruct P { x: i32 }\n\nimpl P {\n    /// Makes one.\n    /// More.\n    fn new() -> Self {\n        P { x: 0 }\n    }\n}\n";
        let skeleton = super::render(&extract(Language::Rust, src).symbols);
        assert_eq!(
            skeleton,
            "        1| // A point.\n      2-2| struct P { x: i32 }\n     4-10| impl P\n        5|     // Makes one.\n      7-9|     fn new() -> Self\n"
        );
    }
}
