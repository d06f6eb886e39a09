//! The words an event is found by and a query asks with, made the same way on both sides:
//! lowercase runs of letters and digits, identifiers also in their parts (`parseConfig` is
//! found by `parse` and `config`), English function words dropped, common inflections cut
//! (`returns`, `returned`, `returning` are `return`), and the text's words counted once. The full-text index stores exactly these, so what it matches is what the
//! score measures.

/// Words too common in prompts and notes to tell events apart.
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been",
    "but", "by", "can", "could", "did", "do", "does", "done", "for", "from", "had", "has", "have",
    "how", "i", "if", "in", "into", "is", "it", "its", "just", "me", "my", "no", "not", "of", "on",
    "or", "our", "should", "so", "some", "than", "that", "the", "their", "them", "then", "there",
    "these", "this", "those", "to", "us", "was", "we", "were", "what", "when", "where", "which",
    "while", "who", "why", "will", "with", "would", "you", "your",
];

/// The distinct terms of `text`, in order of first appearance.
pub fn terms(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut push = |term: String| {
        if STOP_WORDS.contains(&term.as_str()) {
            return;
        }
        let term = stem(term);
        if term.chars().count() >= 2 && seen.insert(term.clone()) {
            out.push(term);
        }
    };
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        if word.is_empty() {
            continue;
        }
        let parts = camel_parts(word);
        push(word.to_lowercase());
        if parts.len() > 1 {
            for part in parts {
                push(part.to_lowercase());
            }
        }
    }
    out
}

/// A light suffix cut for English words (plural -s/-es/-ies, -ed, -ing), conservative on
/// short words; anything not plain ASCII letters is kept as it is.
fn stem(word: String) -> String {
    if !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return word;
    }
    let n = word.len();
    let cut = |suffix: &str, keep_min: usize, with: &str| -> Option<String> {
        let stem = word.strip_suffix(suffix)?;
        (stem.len() >= keep_min).then(|| format!("{stem}{with}"))
    };
    let stemmed = if word.ends_with("ies") {
        cut("ies", 2, "y")
    } else if word.ends_with("sses") {
        cut("es", 3, "")
    } else if word.ends_with("ing") {
        cut("ing", 3, "")
    } else if word.ends_with("ed") && !word.ends_with("eed") {
        cut("ed", 3, "")
    } else if word.ends_with('s')
        && !(word.ends_with("ss") || word.ends_with("us") || word.ends_with("is"))
        && n > 3
    {
        cut("s", 3, "")
    } else {
        None
    };
    let stemmed = stemmed.unwrap_or(word);
    // A silent e goes too, so `decide` meets `decided` and `update` meets `updating`.
    match stemmed.strip_suffix('e') {
        Some(stem) if stem.len() >= 4 => stem.to_string(),
        _ => stemmed,
    }
}

/// `parseHTTPConfig2` -> `parse`, `HTTP`, `Config2`.
fn camel_parts(word: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut parts = Vec::new();
    let mut start = 0;
    for i in 1..chars.len() {
        let (at, c) = chars[i];
        let prev = chars[i - 1].1;
        let next_lower = chars.get(i + 1).is_some_and(|(_, n)| n.is_lowercase());
        let boundary = (c.is_uppercase() && prev.is_lowercase())
            || (c.is_uppercase() && prev.is_uppercase() && next_lower);
        if boundary {
            parts.push(&word[start..at]);
            start = at;
        }
    }
    parts.push(&word[start..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split_stop_words_drop_repeats_count_once() {
        assert_eq!(
            terms("Why does parseHTTPConfig fail? parse_config, parse the config!"),
            ["parsehttpconfig", "pars", "http", "config", "fail"]
        );
        assert_eq!(terms("Ünïcode 変更 x"), vec!["ünïcode", "変更"]);
        assert_eq!(
            terms("returns returned returning return queries classes status decide decided"),
            ["return", "query", "class", "status", "decid"]
        );
    }
}
