//! Reading a query as agents send it: a few words, an identifier, or a whole issue pasted with
//! its tracebacks, code blocks, paths and quoted error messages. What comes out is weighted
//! evidence, never a filter: each word once, code-like names (identifiers with `_` or inner
//! capitals, dotted names, backticked or fenced code, traceback functions) above prose, stop
//! words dropped, numbers and one-letter fragments nearly weightless; quoted fragments are
//! phrases that score when they match and cost nothing when they do not. Only `+"..."` in a
//! short query requires a match, for an agent that wants exactly that.

use super::tokenizer;
use regex::Regex;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;
use tantivy::tokenizer::Token;

/// Distinct words a query searches for; the rest (the lowest weighted) are dropped, which
/// bounds the boolean query built from a pasted issue.
pub const MAX_QUERY_WORDS: usize = 256;
/// Quoted phrases a query scores.
pub const MAX_QUERY_PHRASES: usize = 16;
/// Files a query may name (frames first, then paths, then dotted names).
pub const MAX_MENTIONS: usize = 32;
/// Words that choose snippet and preview lines.
pub const MAX_NEEDLES: usize = 24;
/// In a long text, a prose word in more than this share of chunks is dropped: it tells
/// nothing apart and its long posting list is most of the search's cost.
pub const COMMON_SHARE: f32 = 0.1;
/// A query with more words than this is read as a text (an issue, a log) rather than a
/// search: its prose weighs less against its code.
const LONG_QUERY_WORDS: usize = 24;

/// Weights of a word by where it came from.
const CODE_WEIGHT: f32 = 2.0;
const PROSE_WEIGHT: f32 = 1.0;
/// Prose in a long text: most of an issue's words say how the user felt, not where the code is.
const LONG_PROSE_WEIGHT: f32 = 0.6;
/// Numbers and one-letter fragments: `4`, `x`, `0.1`.
pub(super) const WEAK_WEIGHT: f32 = 0.1;

/// Words too common in prose to tell files apart (code-like words are never dropped).
pub const STOPWORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as",
    "at", "be", "because", "been", "before", "being", "below", "between", "both", "but", "by",
    "can", "could", "did", "do", "does", "doing", "don", "down", "during", "each", "eg", "etc",
    "even", "few", "for", "from", "further", "get", "got", "had", "has", "have", "having", "he",
    "her", "here", "hers", "him", "his", "how", "however", "i", "ie", "if", "in", "into", "is",
    "it", "its", "itself", "just", "like", "ll", "me", "might", "more", "most", "much", "must",
    "my", "no", "nor", "not", "now", "of", "off", "on", "once", "one", "only", "or", "other",
    "our", "out", "over", "own", "please", "re", "same", "see", "seems", "she", "should", "so",
    "some", "still", "such", "than", "thanks", "that", "the", "their", "them", "then", "there",
    "these", "they", "this", "those", "though", "through", "to", "too", "under", "until", "up",
    "us", "use", "used", "using", "ve", "very", "want", "was", "way", "we", "well", "were", "what",
    "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "yet", "you",
    "your",
];

/// One searched word: an identifier's whole and its parts, as tokens, and its weight.
#[derive(Debug, Clone)]
pub struct Word {
    pub tokens: Vec<Token>,
    pub weight: f32,
    /// Code-like: a name worth looking up among definitions.
    pub code: bool,
}

impl Word {
    /// The whole word as the index spells it (lower case).
    pub fn key(&self) -> &str {
        self.tokens
            .iter()
            .max_by_key(|t| t.position_length)
            .map_or("", |t| t.text.as_str())
    }
}

/// A query read for search and ranking.
#[derive(Debug, Clone, Default)]
pub struct ReadQuery {
    /// Distinct words, heaviest first.
    pub words: Vec<Word>,
    /// Quoted fragments: a match scores, no match costs nothing.
    pub phrases: Vec<Vec<Token>>,
    /// `+"..."` in a short query: every match must contain it.
    pub required: Vec<Vec<Token>>,
    /// Files the text names (a path, a traceback frame, a dotted module), each as its
    /// lower-case components: `django/db/models/query.py` is `[django, db, models, query.py]`,
    /// a dotted `sklearn.linear_model.Ridge` is `[sklearn, linear_model, ridge]` (dotted).
    pub mentions: Vec<Mention>,
    /// More words than a search: a pasted text.
    pub long: bool,
    /// The text is about tests (names a test file or a test), so tests are not demoted.
    pub about_tests: bool,
    /// How much the text is about each word (by key): mentioned often, or in its first line
    /// (an issue's title). It picks which of a file's definitions the text is about; it never
    /// adds to a file's score, where each word counts once.
    pub prominence: HashMap<String, Prominence>,
    /// The functions of the text's traceback frames, each with the file it ran in: a frame
    /// speaks for that file's definition of the name, not for every definition of it.
    pub frame_functions: Vec<FrameFunction>,
    /// The text's lines of some length, whitespace aside (as [`line_key`]s, sorted): a chunk
    /// holding one of them is code the text quotes.
    pub quoted_lines: Vec<u64>,
}

/// How much a text is about one word, wherever it is defined.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prominence {
    /// `1 + 0.5 ln(mentions)`: the tenth mention adds less than the second.
    pub mentions: f32,
    /// Named in the first line of a text of several lines (an issue's title).
    pub in_title: bool,
}

/// A traceback frame's function and the file it ran in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameFunction {
    /// The frame's file, as a mention (lower-case components).
    pub file: Mention,
    /// The function's key (lower case, `_` trimmed).
    pub function: String,
    /// The last frame in its file: where the error passed last there.
    pub innermost: bool,
}

/// A file the query names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    pub parts: Vec<String>,
    /// A dotted name (module path), matched without file extensions.
    pub dotted: bool,
    /// From a traceback frame: the file the error passed through.
    pub frame: bool,
}

impl ReadQuery {
    /// Lower-case words and parts to look for when choosing a snippet line or preview lines,
    /// heaviest first, at most [`MAX_NEEDLES`]: each is looked for in every line shown.
    pub fn needles(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for token in self
            .words
            .iter()
            .flat_map(|w| &w.tokens)
            .chain(self.phrases.iter().chain(&self.required).flatten())
        {
            if out.len() >= MAX_NEEDLES {
                break;
            }
            if token.text.chars().count() > 1 && !out.contains(&token.text) {
                out.push(token.text.clone());
            }
        }
        out
    }

    /// The weight of a token: the heaviest word it belongs to.
    pub fn weights(&self) -> HashMap<&str, f32> {
        let mut out: HashMap<&str, f32> = HashMap::new();
        for word in &self.words {
            for t in &word.tokens {
                let w = out.entry(t.text.as_str()).or_default();
                *w = w.max(word.weight);
            }
        }
        out
    }

    /// Every word of some weight (code or prose, lower case, 3+ characters): a symbol named
    /// like one is what a file's matching part most likely is.
    pub fn plain_names(&self) -> Vec<&str> {
        self.words
            .iter()
            .filter(|w| w.weight > WEAK_WEIGHT)
            .map(Word::key)
            .filter(|k| k.chars().count() >= 3)
            .collect()
    }

    /// How much the text is about `key` as defined in the file `path` (1 for a word mentioned
    /// once, outside a title): its mentions, times the strongest of its title and a traceback
    /// frame that ran in `path` (a frame's `draw` in one file says nothing of another
    /// file's `draw`).
    pub fn prominence_in(&self, key: &str, path: &str) -> f32 {
        let key = key.trim_matches('_');
        let (mentions, title) = self.prominence.get(key).map_or((1.0, 1.0), |p| {
            let title = if p.in_title { TITLE_PROMINENCE } else { 1.0 };
            (p.mentions, title)
        });
        let place = self
            .frame_functions
            .iter()
            .filter(|f| f.function == key)
            .filter(|f| mention_match(&f.file, path) >= f.file.parts.len().min(2))
            .map(|f| {
                if f.innermost {
                    INNERMOST_PROMINENCE
                } else {
                    FRAME_PROMINENCE
                }
            })
            .fold(title, f32::max);
        mentions * place
    }

    /// Whether the text quotes lines at all (see [`quotes`](Self::quotes)).
    pub fn quotes_lines(&self) -> bool {
        !self.quoted_lines.is_empty()
    }

    /// Whether `body` holds a line the text quotes (whitespace aside): code pasted from the
    /// file itself, a traceback's source line, a signature.
    pub fn quotes(&self, body: &str) -> bool {
        !self.quoted_lines.is_empty()
            && body
                .lines()
                .filter(|l| l.trim().len() >= QUOTED_LINE_MIN)
                .any(|l| self.quoted_lines.binary_search(&line_key(l)).is_ok())
    }

    /// Code-like names (lower case), for definition lookups.
    pub fn code_names(&self) -> Vec<&str> {
        self.words
            .iter()
            .filter(|w| w.code)
            .map(Word::key)
            .filter(|k| k.chars().count() >= 3)
            .collect()
    }
}

/// A lower-cased text's words as the reader keys query words: identifiers whole and by their
/// `_` parts, as slices of `lower` (what coverage compares against).
pub fn text_words(lower: &str) -> impl Iterator<Item = &str> {
    lower
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .flat_map(|w| {
            let parts = w
                .contains('_')
                .then(|| w.split('_').filter(|p| !p.is_empty()));
            std::iter::once(w).chain(parts.into_iter().flatten())
        })
}

/// Reads `query`.
pub fn read(query: &str) -> ReadQuery {
    let mut out = ReadQuery::default();
    let mut code_spans: Vec<&str> = Vec::new();
    // Fenced blocks and inline backticks are code.
    let mut prose = String::with_capacity(query.len());
    for (i, part) in query.split("```").enumerate() {
        if i % 2 == 1 {
            code_spans.push(part);
            prose.push('\n');
        } else {
            for (j, piece) in part.split('`').enumerate() {
                if j % 2 == 1 && !piece.contains('\n') {
                    code_spans.push(piece);
                    prose.push(' ');
                } else {
                    prose.push_str(piece);
                    prose.push(' ');
                }
            }
        }
    }
    let mut words: Vec<Word> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut add = |tokens: Vec<Token>, weight: f32, code: bool, words: &mut Vec<Word>| {
        let key = tokens
            .iter()
            .max_by_key(|t| t.position_length)
            .map(|t| t.text.clone())
            .unwrap_or_default();
        if key.is_empty() {
            return;
        }
        match index.get(&key) {
            Some(&at) => {
                let w = &mut words[at];
                w.weight = w.weight.max(weight);
                w.code |= code;
            }
            None => {
                index.insert(key, words.len());
                words.push(Word {
                    tokens,
                    weight,
                    code,
                });
            }
        }
    };

    // Traceback frames and paths name files; their function names are code.
    {
        let text = query;
        let found = frames(text);
        // Per file, its last frame: where the error passed last in it.
        let mut last: HashMap<&str, usize> = HashMap::new();
        for (i, (path, function)) in found.iter().enumerate() {
            if function.is_some() {
                last.insert(path.as_str(), i);
            }
        }
        for (i, (path, function)) in found.iter().enumerate() {
            let file = Mention {
                parts: path_parts(path),
                dotted: false,
                frame: true,
            };
            if let Some(f) = function {
                for word in split_words(f) {
                    add(word, CODE_WEIGHT, true, &mut words);
                }
                let frame = FrameFunction {
                    file: file.clone(),
                    function: f.to_lowercase().trim_matches('_').to_string(),
                    innermost: last.get(path.as_str()) == Some(&i),
                };
                if out.frame_functions.len() < MAX_FRAME_FUNCTIONS
                    && !out.frame_functions.contains(&frame)
                {
                    out.frame_functions.push(frame);
                }
            }
            out.mentions.push(file);
        }
        for path in paths(text) {
            let m = Mention {
                parts: path_parts(&path),
                dotted: false,
                frame: false,
            };
            if m.parts.len() > 1 && !out.mentions.iter().any(|x| x.parts == m.parts) {
                out.mentions.push(m);
            }
        }
        for dotted in dotted_names(text) {
            let m = Mention {
                parts: dotted.split('.').map(str::to_lowercase).collect(),
                dotted: true,
                frame: false,
            };
            if !out.mentions.iter().any(|x| x.parts == m.parts) {
                out.mentions.push(m);
            }
        }
    }

    // Quoted fragments (outside code): phrases, and their words as words. `+"..."` requires.
    let mut free = String::with_capacity(prose.len());
    for (i, piece) in prose.split('"').enumerate() {
        if i % 2 == 1 {
            let mut tokens = Vec::new();
            tokenizer::tokenize(piece, &mut tokens);
            if tokens.is_empty() {
                continue;
            }
            if free.ends_with('+') {
                free.pop();
                out.required.push(tokens);
            } else if tokens.len() > 1 {
                out.phrases.push(tokens);
            }
            free.push(' ');
            free.push_str(piece);
            free.push(' ');
        } else {
            free.push_str(piece);
        }
    }
    let total_words = free.split_whitespace().count()
        + code_spans
            .iter()
            .map(|s| s.split_whitespace().count())
            .sum::<usize>();
    out.long = total_words > LONG_QUERY_WORDS;
    if out.long {
        // A pasted text's `+"` is a diff line or code, not an operator.
        let required = std::mem::take(&mut out.required);
        out.phrases
            .extend(required.into_iter().filter(|p| p.len() > 1));
    }
    let prose_weight = if out.long {
        LONG_PROSE_WEIGHT
    } else {
        PROSE_WEIGHT
    };

    for span in &code_spans {
        for word in split_words(span) {
            let weight = weak_or(&word, CODE_WEIGHT);
            add(word, weight, true, &mut words);
        }
    }
    for raw in free.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')) {
        let raw = raw.trim_matches('.');
        let dotted = raw.contains('.') && raw.split('.').all(|p| is_name(p) && p.len() > 1);
        for piece in raw.split('.') {
            if piece.is_empty() {
                continue;
            }
            let code = looks_like_code(piece) || dotted;
            for word in split_words(piece) {
                let lower = word_key(&word);
                if !code && STOPWORDS.contains(&lower.as_str()) {
                    continue;
                }
                let weight = weak_or(&word, if code { CODE_WEIGHT } else { prose_weight });
                add(word, weight, code, &mut words);
            }
        }
    }
    if words.is_empty() {
        // Nothing but stop words: search them rather than nothing.
        for word in split_words(&free) {
            add(word, PROSE_WEIGHT, false, &mut words);
        }
    }
    // Heaviest first, stable among equals, so the cut keeps what matters.
    words.sort_by(|a, b| b.weight.total_cmp(&a.weight));
    words.truncate(MAX_QUERY_WORDS);
    out.phrases.truncate(MAX_QUERY_PHRASES);
    // Each mention is a catalogue lookup: a text full of paths must not cost one per path.
    out.mentions.truncate(MAX_MENTIONS);
    out.required.truncate(MAX_QUERY_PHRASES);
    out.about_tests = about_tests(&out, &words);
    out.prominence = prominence(query, &words);
    // A pasted text's lines: a short query's one line is matched by its words already.
    out.quoted_lines = query
        .lines()
        .filter(|_| out.long)
        .filter(|l| l.trim().len() >= QUOTED_LINE_MIN)
        .map(line_key)
        .collect();
    out.quoted_lines.sort_unstable();
    out.quoted_lines.dedup();
    out.words = words;
    out
}

/// A word named in a text's first line (an issue's title) is this much more its subject.
const TITLE_PROMINENCE: f32 = 2.0;
/// A traceback frame's function: the error passed through it.
const FRAME_PROMINENCE: f32 = 3.0;
/// The innermost frame in a file: where the error passed last in that file.
const INNERMOST_PROMINENCE: f32 = 4.5;
/// Weight of the log of a word's mentions: the tenth mention adds less than the second.
const MENTIONS_LOG: f32 = 0.5;
/// Distinct traceback frames weighed per file (a recursion's repeated frames are one).
const MAX_FRAME_FUNCTIONS: usize = 256;
/// Shorter lines (`return self`, `)`) are quoted by chance.
const QUOTED_LINE_MIN: usize = 16;

/// Each word's prominence in `text`: its whole mentions (`lastmod` inside
/// `get_latest_lastmod` is not a mention of `lastmod`) and whether the first line of a text
/// of several lines names it. Frames are weighed per file, in [`ReadQuery::prominence_in`].
fn prominence(text: &str, words: &[Word]) -> HashMap<String, Prominence> {
    let whole = |t: &str| -> Vec<String> {
        t.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map(|w| w.trim_matches('_'))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let lower = text.to_lowercase();
    let mut counts: HashMap<String, u32> = HashMap::new();
    for word in whole(&lower) {
        *counts.entry(word).or_default() += 1;
    }
    let mut lines = lower.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().unwrap_or("");
    let title: HashSet<String> = if lines.next().is_some() {
        whole(first).into_iter().collect()
    } else {
        HashSet::new()
    };
    words
        .iter()
        .map(|w| {
            let key = w.key().trim_matches('_');
            let mentions = counts.get(key).copied().unwrap_or(1).max(1) as f32;
            let prominence = Prominence {
                mentions: 1.0 + MENTIONS_LOG * mentions.ln(),
                in_title: title.contains(key),
            };
            (key.to_string(), prominence)
        })
        .collect()
}

/// A line's words, whitespace aside, hashed (FNV-1a over the line with each run of
/// whitespace one space): how quoted code is compared (a pasted line loses or changes its
/// indentation). Byte by byte, without a string per line: every line of every candidate
/// chunk is keyed.
fn line_key(line: &str) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash = OFFSET;
    let mut space = false;
    for &byte in line.trim().as_bytes() {
        if byte.is_ascii_whitespace() {
            space = true;
            continue;
        }
        if space {
            hash = (hash ^ u64::from(b' ')).wrapping_mul(PRIME);
            space = false;
        }
        hash = (hash ^ u64::from(byte)).wrapping_mul(PRIME);
    }
    hash
}

/// The text is about tests when it names a test file or a test function, or (a short
/// query) says "test".
fn about_tests(read: &ReadQuery, words: &[Word]) -> bool {
    let testy =
        |s: &str| s == "test" || s == "tests" || s.starts_with("test_") || s.ends_with("_test");
    read.mentions
        .iter()
        .any(|m| !m.dotted && m.parts.iter().any(|p| testy(p.trim_end_matches(".py"))))
        || words.iter().any(|w| {
            let key = w.key();
            (w.code && (key.starts_with("test_") || key.starts_with("test") && key.len() > 4))
                || (!read.long && testy(key))
        })
}

/// The tokens of each word of `text`, an identifier's whole and parts together.
fn split_words(text: &str) -> Vec<Vec<Token>> {
    let mut tokens = Vec::new();
    tokenizer::tokenize(text, &mut tokens);
    let mut out: Vec<Vec<Token>> = Vec::new();
    let mut word: Vec<Token> = Vec::new();
    let mut end = 0;
    for token in tokens {
        if token.position >= end && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        end = end.max(token.position + token.position_length);
        word.push(token);
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

fn word_key(word: &[Token]) -> String {
    word.iter()
        .max_by_key(|t| t.position_length)
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

/// Numbers and one-letter words weigh next to nothing, whatever their source.
fn weak_or(word: &[Token], weight: f32) -> f32 {
    let key = word_key(word);
    if key.chars().count() <= 1 || key.chars().all(|c| c.is_ascii_digit()) {
        WEAK_WEIGHT
    } else {
        weight
    }
}

/// An identifier rather than a word: `snake_case`, `camelCase`, `HTTPError`, `utf8`.
fn looks_like_code(word: &str) -> bool {
    let w = word.trim_matches('_');
    if w.is_empty() || !is_name(word) {
        return false;
    }
    let inner_upper = w.chars().skip(1).any(|c| c.is_uppercase());
    let mixed_digit = w.chars().any(|c| c.is_ascii_digit()) && w.chars().any(char::is_alphabetic);
    w.contains('_') || word.starts_with('_') || inner_upper || mixed_digit
}

fn is_name(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
}

/// Traceback frames, wherever they are (a pasted text may have lost its line breaks):
/// `File "path", line N, in function` (Python and IPython) and `at function (path:N:M)`
/// (JavaScript), the innermost frame last.
fn frames(text: &str) -> Vec<(String, Option<String>)> {
    static PYTHON: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"File "([^"\n]+)", line \d+(?:, in ([A-Za-z_][A-Za-z0-9_]*))?"#)
            .expect("a valid pattern")
    });
    // IPython and Jupyter: `File ~/x/_axes.py:2182, in Axes._convert_dx(dx, x0)` (8.x) and
    // `~/x/_axes.py in _convert_dx(dx, x0)` (7.x).
    static IPYTHON: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?:File ([^\s,]+\.pyx?):\d+, in ([A-Za-z_][\w.]*)|(\S+\.pyx?) in ([A-Za-z_]\w*)\()",
        )
        .expect("a valid pattern")
    });
    static JAVASCRIPT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"at ([A-Za-z_$][\w$.]*) \(([^()\s]+/[^()\s]+?):\d+(?::\d+)?\)")
            .expect("a valid pattern")
    });
    let mut out: Vec<(String, Option<String>)> = PYTHON
        .captures_iter(text)
        .map(|c| (c[1].to_string(), c.get(2).map(|f| f.as_str().to_string())))
        .collect();
    out.extend(IPYTHON.captures_iter(text).filter_map(|c| {
        let path = c.get(1).or(c.get(3))?.as_str().to_string();
        let function = c.get(2).or(c.get(4))?.as_str();
        let function = function.rsplit('.').next().unwrap_or(function).to_string();
        Some((path, is_name(&function).then_some(function)))
    }));
    // A JavaScript stack lists the innermost frame first: reversed, the last frame is the
    // innermost in every language.
    let javascript: Vec<(String, Option<String>)> = JAVASCRIPT
        .captures_iter(text)
        .map(|c| {
            let function = c[1].rsplit('.').next().unwrap_or(&c[1]).to_string();
            (c[2].to_string(), is_name(&function).then_some(function))
        })
        .collect();
    out.extend(javascript.into_iter().rev());
    out
}

/// Path-like strings: a name with an extension after at least one `/`, or `name.ext`
/// with a source-like extension.
fn paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for raw in text.split(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '"' | '\'' | '`' | '(' | ')' | ',' | ';' | '<' | '>' | '[' | ']' | '='
            )
    }) {
        let raw = raw.trim_end_matches([':', '.']);
        let raw = raw.split(':').next().unwrap_or(raw);
        let Some((stem, ext)) = raw.rsplit_once('.') else {
            continue;
        };
        let ext_ok = (1..=5).contains(&ext.len()) && ext.chars().all(|c| c.is_ascii_alphanumeric());
        let name_ok = stem.rsplit('/').next().is_some_and(|n| {
            !n.is_empty()
                && n.chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
        });
        if ext_ok && name_ok && raw.contains('/') && !raw.contains("://") {
            out.push(raw.to_string());
        }
    }
    out
}

/// Dotted names of three or more parts (`django.db.models`, `np.linalg.norm`), which often
/// spell a module path; two-part ones are too often `self.x` or `obj.method`.
fn dotted_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for raw in text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')) {
        let raw = raw.trim_matches('.');
        let parts: Vec<&str> = raw.split('.').collect();
        if parts.len() >= 3
            && parts.iter().all(|p| is_name(p) && !p.contains('.'))
            && !out.iter().any(|o: &String| o == raw)
        {
            out.push(raw.to_string());
        }
    }
    out
}

/// A path's lower-case components, from its last `site-packages`/`src` on, `./` and leading
/// slashes dropped.
fn path_parts(path: &str) -> Vec<String> {
    let path = path.replace('\\', "/");
    let mut parts: Vec<String> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != "." && *p != "..")
        .map(str::to_lowercase)
        .collect();
    if let Some(at) = parts
        .iter()
        .rposition(|p| p == "site-packages" || p == "dist-packages")
    {
        parts.drain(..=at);
    }
    parts
}

/// How strongly `mention` names the indexed file `path`: the number of trailing components
/// they share (the file name must be one of them), 0 when it does not name it.
pub fn mention_match(mention: &Mention, path: &str) -> usize {
    let lower = path.to_lowercase();
    let mut file: Vec<&str> = lower.split('/').collect();
    if mention.dotted {
        // Modules: `a/b/c.py` is `a.b.c`, `a/b/__init__.py` is `a.b`. The dotted name may go
        // on past the module (a class, a function).
        let Some(last) = file.last_mut() else {
            return 0;
        };
        *last = last.rsplit_once('.').map_or(*last, |(stem, _)| stem);
        if *last == "__init__" || *last == "index" || *last == "mod" {
            file.pop();
        }
        let best = (0..mention.parts.len())
            .map(|end| common_suffix(&file, &mention.parts[..=end]))
            .max()
            .unwrap_or(0);
        return if best >= 2 { best } else { 0 };
    }
    let shared = common_suffix(&file, &mention.parts);
    if shared == 0 {
        0
    } else if shared == 1 && mention.parts.len() > 1 && file.len() > 1 {
        // Only the file name agrees: a weak mention (`utils.py` is everywhere).
        1
    } else {
        shared
    }
}

fn common_suffix(a: &[&str], b: &[String]) -> usize {
    a.iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| **x == y.as_str())
        .count()
}

#[cfg(test)]
mod tests;
