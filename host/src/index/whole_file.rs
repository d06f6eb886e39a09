//! Whole-file evidence for pasted texts: BM25 of the query's words over each candidate file's
//! whole text. Chunks see a function at a time; a long issue is often about a file whose
//! evidence is spread over many functions, none of which ranks alone (a compiler, a model
//! base class). Only the files the chunk search already found are read, so the cost is a few
//! dozen file reads, and only for long texts.

use super::query_reader;
use crate::workspace::{ReadOptions, Workspace};
use rayon::prelude::*;
use std::collections::HashMap;

/// Files read per search at most (the first found, in chunk-score order).
pub const FILES: usize = 40;
/// Bytes of a file read for it (most source files are far smaller).
const MAX_BYTES: u64 = 512 * 1024;
const K1: f32 = 1.2;
const B: f32 = 0.75;

/// Each readable file's BM25 for `terms` (a query word's key and its weight times its IDF),
/// over the file's words as the query reader keys them (`query_reader::text_words`), lengths against these files' mean.
pub fn scores(ws: &Workspace, paths: &[String], terms: &[(String, f32)]) -> HashMap<String, f32> {
    let options = ReadOptions {
        max_bytes: MAX_BYTES,
        allow_sensitive: false,
        allow_binary: false,
        allow_truncate: true,
    };
    let at: HashMap<&str, usize> = terms
        .iter()
        .enumerate()
        .map(|(i, (k, _))| (k.as_str(), i))
        .collect();
    // Read and counted in parallel: the files are independent, and the call waits on them.
    let wanted: Vec<&String> = paths.iter().take(FILES).collect();
    let counted: Vec<(&String, Vec<u32>, usize)> = super::live::pool().install(|| {
        wanted
            .into_par_iter()
            .filter_map(|path| {
                let file = ws.read(path, options).ok()?;
                // Lower-cased once; the words are slices of it.
                let text = String::from_utf8_lossy(&file.bytes).to_lowercase();
                let mut tf = vec![0u32; terms.len()];
                let mut length = 0usize;
                for word in query_reader::text_words(&text) {
                    length += 1;
                    if let Some(&i) = at.get(word) {
                        tf[i] += 1;
                    }
                }
                Some((path, tf, length))
            })
            .collect()
    });
    if counted.is_empty() {
        return HashMap::new();
    }
    let mean = counted.iter().map(|c| c.2).sum::<usize>() as f32 / counted.len() as f32;
    counted
        .into_iter()
        .map(|(path, tf, length)| {
            let norm = K1 * (1.0 - B + B * length as f32 / mean.max(1.0));
            let score = tf
                .iter()
                .zip(terms)
                .filter(|(n, _)| **n > 0)
                .map(|(&n, (_, w))| w * n as f32 * (K1 + 1.0) / (n as f32 + norm))
                .sum();
            (path.clone(), score)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_holding_more_of_the_rarer_words_score_higher_and_unreadable_ones_are_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let write = |path: &str, text: &str| std::fs::write(dir.path().join(path), text).unwrap();
        write(
            "compiler.py",
            "def as_sql(self):\n    return self.order_by\n\ndef get_order_by(self):\n    return self.ordering\n",
        );
        write("other.py", "def as_sql(self):\n    return None\n");
        write(".env", "ordering=secret order_by\n");
        let ws = Workspace::open(dir.path()).unwrap();
        let terms = vec![
            ("order_by".to_string(), 3.0),
            ("ordering".to_string(), 2.0),
            ("sql".to_string(), 0.5),
        ];
        let paths: Vec<String> = ["compiler.py", "other.py", ".env", "missing.py"]
            .map(String::from)
            .to_vec();
        let scores = scores(&ws, &paths, &terms);
        assert!(scores["compiler.py"] > scores["other.py"], "{scores:?}");
        assert!(scores["other.py"] > 0.0, "as_sql holds sql by its parts");
        assert!(!scores.contains_key(".env") && !scores.contains_key("missing.py"));
    }
}
