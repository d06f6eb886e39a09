//! Which of several definitions a plain-English goal describes. The search ranks chunks by
//! the goal's words anywhere in the code; the definition meant is the one whose own name and
//! docstring say what the goal says. So every candidate (the definitions in the files the
//! search finds, and those the goal's words name) is weighed by the goal's words its name
//! and the first paragraph of its docstring account for, a word few candidates share
//! weighing more than one they all share, with a bonus for the goal's words in the
//! docstring's order, and the search's rank as the tie-breaker. Tests are read only when the
//! goal asks about tests, generated and vendored code hardly ever.

use crate::target::Target;
use std::collections::HashMap;

/// A word found in the definition's name says more than one found in its docstring, the
/// more so the more of the name the goal says: `Path` is all said by "adds a matcher for the
/// URL path", `PathPrefix` only half, and `getElementsByAttributeValueMatching` does more
/// than "get the attribute value" asks.
const NAME_WEIGHT: f32 = 1.6;
/// Two of the goal's words side by side in the docstring, as a share of the rarer's weight.
const RUN_WEIGHT: f32 = 0.5;
/// The search's first hit is worth this share of an average word; later hits less.
const RANK_WEIGHT: f32 = 0.2;
/// A test read for a goal that does not mention tests, or generated or vendored code.
const ASIDE_FACTOR: f32 = 0.3;
/// Distinct words of a goal read against the candidates; a longer goal is a pasted text.
const MAX_WORDS: usize = 128;
/// The docstring's first paragraph, up to this many characters, is its summary.
const DOC_CHARS: usize = 400;

/// A definition (or a file) the goal might mean.
pub struct Candidate {
    pub target: Target,
    /// Its name with its container (`Blueprint.add_url_rule`), or the file's path.
    pub name: String,
    /// Its doc comment or docstring, if any.
    pub doc: String,
    /// Its place among the search's hits; the definitions the goal's words name, and the
    /// others of a hit's file, come after them.
    pub rank: usize,
    /// The role of its file in the project (`source`, `test`, `generated`, ...).
    pub role: String,
    /// The summaries of the doc comments of its other declarations (TypeScript's and Java's
    /// overloads each say what their own form does).
    overloads: String,
}

impl Candidate {
    /// A candidate of a source file; its role is set once the files' roles are known.
    pub fn new(target: Target, name: String, doc: String, rank: usize) -> Self {
        Candidate {
            target,
            name,
            doc,
            rank,
            role: "source".into(),
            overloads: String::new(),
        }
    }

    /// Another declaration of the same definition: its doc comment is read too.
    pub fn overload(&mut self, doc: &str) {
        let said = summary(doc);
        if !said.is_empty() && !summary(&self.doc).contains(said) && !self.overloads.contains(said)
        {
            self.overloads.push('\n');
            self.overloads.push_str(said);
        }
    }
}

/// A candidate as the goal reads it.
#[derive(Debug, Clone)]
pub struct Reading {
    pub target: Target,
    pub score: f32,
    /// The share of the goal's words (by weight) its name and docstring account for.
    pub share: f32,
    /// How many of the goal's words they account for.
    pub covered: usize,
}

/// The candidates as readings of `words` (the goal's content words, lowercase, in order),
/// best first.
pub fn weigh(words: &[String], candidates: Vec<Candidate>) -> Vec<Reading> {
    if words.is_empty() || candidates.is_empty() {
        return candidates
            .into_iter()
            .map(|c| Reading {
                target: c.target,
                score: 0.0,
                share: 0.0,
                covered: 0,
            })
            .collect();
    }
    // Each distinct word once, with how often the goal says it, and each pair of words side
    // by side once: a pasted issue repeats its words, and only the first [`MAX_WORDS`]
    // distinct ones are read (its title and opening, not the stack trace at its end).
    let mut distinct: Vec<&str> = Vec::new();
    let mut times: Vec<f32> = Vec::new();
    let mut id_of: HashMap<&str, usize> = HashMap::new();
    let mut ids: Vec<Option<usize>> = Vec::new();
    for w in words {
        let id = match id_of.get(w.as_str()) {
            Some(&i) => Some(i),
            None if distinct.len() < MAX_WORDS => {
                id_of.insert(w, distinct.len());
                distinct.push(w);
                times.push(0.0);
                Some(distinct.len() - 1)
            }
            None => None,
        };
        if let Some(i) = id {
            times[i] += 1.0;
        }
        ids.push(id);
    }
    let mut pairs: HashMap<(usize, usize), f32> = HashMap::new();
    for pair in ids.windows(2) {
        if let [Some(a), Some(b)] = *pair {
            *pairs.entry((a, b)).or_default() += 1.0;
        }
    }
    struct Terms {
        /// Per distinct word: (in the name, in the docstring).
        found: Vec<(bool, bool)>,
        /// Pairs of distinct words the docstring says side by side.
        runs: Vec<(usize, usize)>,
        /// The share of the definition's own name's words the goal says (a file's: 1).
        fit: f32,
    }
    let terms: Vec<Terms> = candidates
        .iter()
        .map(|c| {
            // A member's container says where it is, not what it does: its words count as
            // the docstring's. (A file's name is its path, split by its words alone.)
            let (container, own) = match c.target {
                Target::Symbol { .. } => c.name.rsplit_once('.').unwrap_or(("", &c.name)),
                _ => ("", c.name.as_str()),
            };
            let name = parts(own);
            // A file's path is read as one name, whole (its words weigh as they always did).
            let fit = match c.target {
                Target::Symbol { .. } => fit(&name, &distinct),
                _ => 1.0,
            };
            let doc: Vec<Vec<usize>> = parts(container)
                .into_iter()
                .chain(parts(summary(&c.doc)))
                .chain(parts(&c.overloads))
                .filter(|w| w.len() >= 3)
                .map(|p| {
                    (0..distinct.len())
                        .filter(|&i| same_word(distinct[i], &p))
                        .collect()
                })
                .collect();
            let found = (0..distinct.len())
                .map(|i| {
                    (
                        name.iter().any(|p| same_word(distinct[i], p)),
                        doc.iter().any(|m| m.contains(&i)),
                    )
                })
                .collect();
            // Read from the docstring's side: a pasted text's pairs are many, a summary's few.
            let mut runs: Vec<(usize, usize)> = doc
                .windows(2)
                .flat_map(|w| {
                    w[0].iter()
                        .flat_map(|&a| w[1].iter().map(move |&b| (a, b)))
                        .collect::<Vec<_>>()
                })
                .filter(|key| pairs.contains_key(key))
                .collect();
            runs.sort_unstable();
            runs.dedup();
            Terms { found, runs, fit }
        })
        .collect();
    let n = candidates.len() as f32;
    let weight: Vec<f32> = (0..distinct.len())
        .map(|i| {
            let holders = terms
                .iter()
                .filter(|t| t.found[i].0 || t.found[i].1)
                .count()
                .max(1);
            (1.0 + n / holders as f32).ln()
        })
        .collect();
    let total: f32 = weight.iter().zip(&times).map(|(w, t)| w * t).sum();
    let average = total / times.iter().sum::<f32>();
    let asks_for_tests = distinct.iter().any(|w| w.starts_with("test"));
    let mut readings: Vec<(Reading, usize)> = candidates
        .into_iter()
        .zip(&terms)
        .map(|(c, t)| {
            let (mut score, mut share, mut covered) = (0.0, 0.0, 0.0);
            for (i, &(in_name, in_doc)) in t.found.iter().enumerate() {
                if in_name || in_doc {
                    let weight = weight[i] * times[i];
                    score += weight
                        * match in_name {
                            true => 1.0 + (NAME_WEIGHT - 1.0) * t.fit,
                            false => 1.0,
                        };
                    share += weight;
                    covered += times[i];
                }
            }
            for &(a, b) in &t.runs {
                score += RUN_WEIGHT * weight[a].min(weight[b]) * pairs[&(a, b)];
            }
            score += RANK_WEIGHT * average / (1 + c.rank.min(50)) as f32;
            let aside = match c.role.as_str() {
                "test" => !asks_for_tests,
                role => role == "generated",
            };
            if aside {
                score *= ASIDE_FACTOR;
            }
            let reading = Reading {
                target: c.target,
                score,
                share: share / total,
                covered: covered as usize,
            };
            (reading, c.rank)
        })
        .collect();
    readings.sort_by(|(a, ra), (b, rb)| b.score.total_cmp(&a.score).then(ra.cmp(rb)));
    readings.into_iter().map(|(r, _)| r).collect()
}

/// Whether `name` (an identifier, or `Container.name`) holds `word` among its words.
pub fn names(name: &str, word: &str) -> bool {
    parts(name).iter().any(|p| same_word(word, p))
}

/// The share of a name's words (of three letters or more, each once) that `words` say.
fn fit(name: &[String], words: &[&str]) -> f32 {
    let mut own: Vec<&str> = name
        .iter()
        .map(String::as_str)
        .filter(|p| p.len() >= 3)
        .collect();
    own.sort_unstable();
    own.dedup();
    if own.is_empty() {
        return 0.0;
    }
    let said = own
        .iter()
        .filter(|p| words.iter().any(|w| same_word(w, p)))
        .count();
    said as f32 / own.len() as f32
}

/// A docstring's first paragraph, up to [`DOC_CHARS`].
fn summary(doc: &str) -> &str {
    let doc = doc.trim();
    let end = doc.find("\n\n").unwrap_or(doc.len());
    let mut end = end.min(DOC_CHARS);
    while !doc.is_char_boundary(end) {
        end -= 1;
    }
    &doc[..end]
}

/// Lowercase words of a text, identifiers split (`save_session_cookie`, `saveSessionCookie`).
fn parts(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .flat_map(split_identifier)
        .map(|p| p.to_lowercase())
        .filter(|p| !p.is_empty())
        .collect()
}

/// One word, or two sharing a stem of five letters (`saved` and `save_session`, `handling`
/// and `handle`), or the shorter of four letters or more beginning the other.
pub fn same_word(a: &str, b: &str) -> bool {
    let common = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    a == b || common >= 5 || (common >= 4 && common == a.chars().count().min(b.chars().count()))
}

/// `save_session_cookie` and `saveSessionCookie` into their words, as the index splits them:
/// at `_`, where lower case (or a digit) meets a capital, and before the last capital of a
/// run followed by lower case (`OFTDate`: oft, date; `HTTPAdapter`: http, adapter).
fn split_identifier(token: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in token.split('_') {
        let chars: Vec<char> = part.chars().collect();
        let mut current = String::new();
        for (k, &c) in chars.iter().enumerate() {
            if let Some(&prev) = k.checked_sub(1).and_then(|j| chars.get(j)) {
                let next = chars.get(k + 1).copied();
                let boundary = (prev.is_lowercase() || prev.is_ascii_digit()) && c.is_uppercase()
                    || prev.is_uppercase()
                        && c.is_uppercase()
                        && next.is_some_and(char::is_lowercase);
                if boundary && !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
            }
            current.push(c);
        }
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(name: &str, doc: &str, rank: usize) -> Candidate {
        let target = Target::Symbol {
            path: "m.py".into(),
            symbol: name.into(),
        };
        Candidate::new(target, name.into(), doc.into(), rank)
    }

    fn words(goal: &str) -> Vec<String> {
        goal.split_whitespace().map(str::to_lowercase).collect()
    }

    fn best(readings: &[Reading]) -> &str {
        match &readings[0].target {
            Target::Symbol { symbol, .. } => symbol,
            _ => "",
        }
    }

    #[test]
    fn the_docstring_that_says_the_goal_wins_over_a_word_that_names_a_definition() {
        let readings = weigh(
            &words("register template filter available any template rendered"),
            vec![
                candidate("Serializer.register", "Register a new tag.", 0),
                candidate(
                    "Blueprint.app_template_filter",
                    "Register a template filter, available in any template rendered by the \
                     application.\n\nLater paragraphs are not the summary.",
                    5,
                ),
            ],
        );
        assert_eq!(best(&readings), "Blueprint.app_template_filter");
        assert!(readings[0].share > 0.99, "{readings:?}");
    }

    #[test]
    fn a_rare_word_decides_and_the_rank_breaks_ties() {
        // `proxy` is in one candidate only; `request` in all.
        let readings = weigh(
            &words("request proxy"),
            vec![
                candidate("send_request", "Send the request.", 0),
                candidate("proxy_for", "The manager for a request's proxy.", 3),
            ],
        );
        assert_eq!(best(&readings), "proxy_for");
        let tie = weigh(
            &words("request"),
            vec![candidate("a_request", "", 2), candidate("b_request", "", 1)],
        );
        assert_eq!(best(&tie), "b_request");
    }

    #[test]
    fn every_overload_s_doc_comment_is_read() {
        let mut get = candidate("TypeVariableName.get", "@deprecated Use a closure.", 1);
        get.overload("Returns type variable named name with bounds.\n\n@param name");
        get.overload("Returns type variable equivalent to mirror.");
        get.overload("Returns type variable equivalent to mirror.");
        assert_eq!(
            get.overloads.matches("mirror").count(),
            1,
            "{}",
            get.overloads
        );
        let readings = weigh(
            &words("type variable named bounds"),
            vec![candidate("TypeName.get", "Returns a type.", 0), get],
        );
        assert_eq!(best(&readings), "TypeVariableName.get");
        assert!(readings[0].share > 0.99, "{readings:?}");
    }

    #[test]
    fn tests_are_read_only_when_the_goal_asks_for_them() {
        let test = |rank| Candidate {
            role: "test".into(),
            ..candidate("test_redirect_follows", "Redirects are followed.", rank)
        };
        let readings = weigh(
            &words("redirects followed"),
            vec![
                test(0),
                candidate("resolve_redirects", "Follow redirects.", 4),
            ],
        );
        assert_eq!(best(&readings), "resolve_redirects");
        let readings = weigh(
            &words("test redirects followed"),
            vec![
                test(0),
                candidate("resolve_redirects", "Follow redirects.", 4),
            ],
        );
        assert_eq!(best(&readings), "test_redirect_follows");
    }

    #[test]
    fn a_pasted_text_is_read_by_its_opening_and_its_repeats_count() {
        let docs = || {
            vec![
                candidate("union_features", "Join the features of transformers.", 3),
                candidate("render_trace", "Format a traceback for the console.", 0),
            ]
        };
        // The title says what it is about; a long tail (past the distinct words read) that
        // would point elsewhere is not read.
        let mut goal = words("features union transformers");
        goal.extend((0..MAX_WORDS).map(|i| format!("filler{i}")));
        goal.extend(
            words("traceback console format trace render")
                .into_iter()
                .cycle()
                .take(500),
        );
        let readings = weigh(&goal, docs());
        assert_eq!(best(&readings), "union_features");
        // Said five times, a word weighs five times.
        let readings = weigh(
            &words("traceback traceback traceback traceback traceback features"),
            docs(),
        );
        assert_eq!(best(&readings), "render_trace");
        assert_eq!(readings[0].covered, 5);
    }

    #[test]
    fn a_name_the_goal_says_whole_wins_over_one_that_does_more() {
        // Both docstrings say every word; the search ranks the longer name first.
        let readings = weigh(
            &words("adds matcher url path"),
            vec![
                candidate("Route.PathPrefix", "Adds a matcher for the URL path.", 0),
                candidate("Route.Path", "Adds a matcher for the URL path.", 1),
            ],
        );
        assert_eq!(best(&readings), "Route.Path");
        assert_eq!(fit(&parts("getValue"), &["get", "value"]), 1.0);
        assert_eq!(fit(&parts("PathPrefix"), &["path"]), 0.5);
    }

    #[test]
    fn words_match_across_identifier_styles_and_stems() {
        let accounted = |text: &str| {
            let parts = parts(text);
            words("saved session handling")
                .iter()
                .filter(|w| parts.iter().any(|p| same_word(w, p)))
                .count()
        };
        assert_eq!(accounted("save_session_cookie"), 2);
        assert_eq!(accounted("handleSession"), 2);
        assert_eq!(accounted("unrelated"), 0);
        assert_eq!(split_identifier("OFTDate"), ["OFT", "Date"]);
        assert_eq!(
            split_identifier("HTTPAdapter_v2"),
            ["HTTP", "Adapter", "v2"]
        );
        assert_eq!(
            split_identifier("saveSessionCookie"),
            ["save", "Session", "Cookie"]
        );
        assert_eq!(summary("Ünïcode first.\n\nSecond."), "Ünïcode first.");
        assert!(summary(&"é".repeat(300)).len() <= DOC_CHARS);
    }
}
