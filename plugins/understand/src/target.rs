//! Goal resolution: from the agent's words (and `path` / `symbol` when given) to what to
//! analyse: a definition, a file, a directory or the project. It reports how it decided and
//! what else it considered, so a wrong guess costs one more call, not three.

use crate::readings::{self, Candidate};
use crate::smart_context::plugin::{index, workspace};
use crate::{Scope, UnderstandArgs};
use sdk::{ToolError, ToolResult, codes};
use serde::Serialize;

/// What the response is about.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Target {
    Symbol { path: String, symbol: String },
    File { path: String },
    Module { path: String },
    Project,
}

/// The target, how it was found, and the other readings of the goal.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Resolution {
    #[serde(flatten)]
    pub target: Target,
    /// `path argument`, `symbol named in the goal (exact)`, `search for the goal`, ...
    pub how: String,
    /// Other targets the goal could mean, as ready `path` / `symbol` pairs.
    pub alternatives: Vec<String>,
    /// How sure the reading is: high (named exactly), medium (a search and the goal's words
    /// point at it, or one of several definitions of the name), low (a guess: pin it with
    /// `path` / `symbol`).
    pub confidence: Confidence,
}

/// How sure a goal's reading is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Confidence {
    High,
    Medium,
    Low,
}

/// Words that ask about the whole, not one thing in it.
const WHOLE: &[&str] = &[
    "architecture",
    "overview",
    "codebase",
    "project",
    "repository",
    "repo",
    "layers",
    "modules",
    "structure",
];

/// A goal with more words than this (stop words aside) is about something in particular,
/// whatever whole-of words it uses on the way.
const MAX_WHOLE_WORDS: usize = 4;

/// A goal of at most this many content words may name a definition by a capitalised word.
const MAX_TITLE_NAME_WORDS: usize = 3;

/// Search hits weighed as readings of a plain-English goal.
const SEARCH_READINGS: u32 = 20;

/// The files of the first hits whose every definition is weighed too: the definition meant
/// is often beside the chunk that matched most words.
const READ_FILES: usize = 10;

/// A reading is sure when it accounts for this share of the goal's words (by weight)...
const SURE_SHARE: f32 = 0.8;
/// ... and the next reads at least this much worse.
const SURE_MARGIN: f32 = 0.1;

/// Other readings listed with the answer.
const MAX_ALTERNATIVES: usize = 5;

/// Code-shaped names of a goal looked up as definitions: a pasted issue text has hundreds of
/// them, and each lookup is a host call.
const MAX_NAME_LOOKUPS: usize = 24;

/// Words that never name code.
const STOP: &[&str] = &[
    "the",
    "a",
    "an",
    "of",
    "in",
    "on",
    "for",
    "to",
    "and",
    "or",
    "how",
    "does",
    "do",
    "what",
    "is",
    "are",
    "why",
    "where",
    "who",
    "which",
    "when",
    "this",
    "that",
    "it",
    "its",
    "with",
    "from",
    "by",
    "about",
    "me",
    "show",
    "explain",
    "understand",
    "work",
    "works",
    "called",
    "describe",
    "give",
    "tell",
    "please",
    "whole",
    "main",
    "code",
    "call",
    "calls",
    "used",
    "use",
    "uses",
];

pub fn resolve(args: &UnderstandArgs) -> ToolResult<Resolution> {
    let mut r = match (&args.path, &args.symbol) {
        (Some(path), symbol) => pinned(path, symbol.as_deref())?,
        (None, Some(symbol)) => {
            by_symbol_name(symbol, "symbol argument", false)?.ok_or_else(|| {
                ToolError::new(codes::NOT_FOUND, format!("no definition named {symbol}"))
                    .suggest("check the spelling, or pass `path` with the file that defines it")
            })?
        }
        (None, None) => from_goal(&args.goal, args.scope)?,
    };
    apply_scope(&mut r, args.scope);
    Ok(r)
}

/// `path` (and `symbol`) as given: a file, a directory, or a definition in a file.
fn pinned(path: &str, symbol: Option<&str>) -> ToolResult<Resolution> {
    let entry = workspace::stat(path)?;
    let path = entry.path;
    let target = match (entry.kind, symbol) {
        (workspace::EntryKind::Directory, _) => Target::Module { path },
        (_, Some(symbol)) => Target::Symbol {
            path,
            symbol: symbol.to_string(),
        },
        _ => Target::File { path },
    };
    Ok(Resolution {
        target,
        how: "path argument".into(),
        alternatives: Vec::new(),
        confidence: Confidence::High,
    })
}

/// A definition by name (`name`, `Container.name`, `Container::name`): exact matches first;
/// with `same_case`, only a definition spelled as written (a goal's `'IN'` or `URLs` is no
/// call of `In` or `urls`; the `symbol` argument is matched in any case).
fn by_symbol_name(name: &str, how: &str, same_case: bool) -> ToolResult<Option<Resolution>> {
    Ok(named(name, how, same_case)?.map(|(r, _)| r))
}

/// [`by_symbol_name`], with the kind of definition it found (`class`, `function`, ...).
fn named(name: &str, how: &str, same_case: bool) -> ToolResult<Option<(Resolution, String)>> {
    // Definitions of a name in any case come first in no particular case: with `same_case`
    // more are asked for, so a `Query` is not cut off by twenty `query`s.
    let mut exact = exact_symbols(name, if same_case { 200 } else { 20 })?;
    if same_case {
        let bare = split_qualified(name).1;
        exact.retain(|s| s.name == bare);
    }
    let Some(best) = exact.iter().min_by_key(|s| rank_key(s)) else {
        return Ok(None);
    };
    let alternatives: Vec<String> = exact
        .iter()
        .filter(|s| !std::ptr::eq(*s, best))
        .take(MAX_ALTERNATIVES)
        .map(|s| format!("{} in {}", qualified(s), s.path))
        .collect();
    let r = Resolution {
        target: Target::Symbol {
            path: best.path.clone(),
            symbol: qualified(best),
        },
        how: format!("{how} (exact)"),
        confidence: if alternatives.is_empty() {
            Confidence::High
        } else {
            Confidence::Medium
        },
        alternatives,
    };
    Ok(Some((r, best.kind.clone())))
}

/// The definitions named exactly `name` (`Container.name` narrows to that container).
fn exact_symbols(name: &str, limit: u32) -> ToolResult<Vec<index::Symbol>> {
    let (container, bare) = split_qualified(name);
    Ok(index::find_symbol(bare, limit)?
        .into_iter()
        .filter(|m| m.how == index::MatchKind::Exact)
        .map(|m| m.symbol)
        .filter(|s| container.is_none_or(|c| s.container.as_deref() == Some(c)))
        .collect())
}

/// `Container.name`, as targets and alternatives name a definition.
fn qualified(s: &index::Symbol) -> String {
    match &s.container {
        Some(c) => format!("{c}.{}", s.name),
        None => s.name.clone(),
    }
}

/// Types and top-level definitions before members, source before tests, shorter paths first.
fn rank_key(s: &index::Symbol) -> (bool, bool, usize, String) {
    let test = s.path.contains("test");
    let member = s.container.is_some();
    (test, member, s.path.len(), s.path.clone())
}

fn split_qualified(name: &str) -> (Option<&str>, &str) {
    let name = name.trim().trim_end_matches("()");
    match name.rsplit_once("::").or_else(|| name.rsplit_once('.')) {
        Some((c, n)) if !c.is_empty() && !n.is_empty() => {
            (Some(c.rsplit(['.', ':']).next().unwrap_or(c)), n)
        }
        _ => (None, name),
    }
}

/// The goal's own words: a path, a code-shaped name, a directory, words joined into a name,
/// the project, and last a search.
fn from_goal(goal: &str, scope: Option<Scope>) -> ToolResult<Resolution> {
    // A name in backticks or quotes is meant as one, whatever its shape.
    let quoted: Vec<&str> = quoted(goal)
        .into_iter()
        .map(str::trim)
        .filter(|q| !q.is_empty() && !q.contains(char::is_whitespace))
        .collect();
    let tokens: Vec<&str> = goal
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| "\"'`,;:()?!".contains(c)))
        .map(|w| w.trim_end_matches('.'))
        .filter(|w| !w.is_empty())
        .collect();
    let lower: Vec<String> = tokens.iter().map(|t| t.to_lowercase()).collect();
    // "architecture of the project" asks about the whole; a sentence that mentions "layers"
    // or "structure" on its way to something else does not.
    let content = lower.iter().filter(|w| !STOP.contains(&w.as_str())).count();
    let whole = (content <= MAX_WHOLE_WORDS && lower.iter().any(|w| WHOLE.contains(&w.as_str())))
        || matches!(scope, Some(Scope::Project | Scope::Module));
    let mut alternatives = Vec::new();
    // 1. A path as written.
    for t in tokens
        .iter()
        .filter(|t| t.contains('/') || has_extension(t))
    {
        if let Ok(entry) = workspace::stat(t) {
            let target = match entry.kind {
                workspace::EntryKind::Directory => Target::Module { path: entry.path },
                _ => Target::File { path: entry.path },
            };
            return Ok(Resolution {
                target,
                how: format!("path named in the goal ({t})"),
                alternatives,
                confidence: Confidence::High,
            });
        }
    }
    // 2. A quoted or code-shaped name: CamelCase, snake_case, dotted or `::` paths. A
    // capitalised word (`Blueprint`, `Register`) is a name in a short goal; in a sentence it
    // may be its first word or a proper noun, and the sentence's words decide (step 4).
    let sentence = content > MAX_TITLE_NAME_WORDS || imperative(&tokens, &lower);
    let code_names = quoted.iter().copied().chain(
        tokens
            .iter()
            .zip(&lower)
            .filter(|(t, l)| {
                let ordinary = STOP.contains(&l.as_str()) || WHOLE.contains(&l.as_str());
                let sentence_word = sentence && titlecase(t);
                code_shaped(t) && !ordinary && !sentence_word
            })
            .map(|(t, _)| *t),
    );
    for t in code_names.take(MAX_NAME_LOOKUPS) {
        if let Some((mut r, kind)) = named(t, "symbol named in the goal", true)? {
            r.alternatives.extend(alternatives);
            return Ok(match CONTAINERS.contains(&kind.as_str()) {
                true => member_meant(r, &lower),
                false => r,
            });
        }
        alternatives.push(format!("{t} (no definition of that name)"));
    }
    // 3. A directory named by a plain word, for whole-of questions first. In a sentence it
    // is one word among others ("the com google gson annotations"), not its subject: the
    // sentence's words decide, and the directory is offered, and answered when they read
    // nothing well.
    let plain: Vec<&str> = tokens
        .iter()
        .zip(&lower)
        .filter(|(_, l)| !STOP.contains(&l.as_str()) && !WHOLE.contains(&l.as_str()))
        .map(|(t, _)| *t)
        .collect();
    let mut named_directory = None;
    for t in &plain {
        if let Ok(entry) = workspace::stat(t)
            && entry.kind == workspace::EntryKind::Directory
        {
            let how = format!("directory named in the goal ({t})");
            if content > MAX_TITLE_NAME_WORDS && !whole {
                named_directory = Some((entry.path, how));
                break;
            }
            return Ok(Resolution {
                target: Target::Module { path: entry.path },
                how,
                alternatives,
                confidence: Confidence::High,
            });
        }
    }
    if whole {
        return Ok(Resolution {
            target: Target::Project,
            how: "the goal asks about the whole project".into(),
            alternatives,
            confidence: Confidence::High,
        });
    }
    let Some((path, how)) = named_directory else {
        return from_words(goal, &plain, alternatives);
    };
    let offered = format!("{path} (directory)");
    let mut with_directory = alternatives.clone();
    with_directory.push(offered.clone());
    match from_words(goal, &plain, with_directory) {
        Ok(read) if read.confidence != Confidence::Low => Ok(read),
        // The words read no definition well: the directory the goal names, unsure.
        read => {
            if let Ok(read) = read {
                alternatives.push(described(&read.target));
                alternatives.extend(read.alternatives.into_iter().filter(|a| *a != offered));
            }
            Ok(Resolution {
                target: Target::Module { path },
                how: format!("{how}; the goal's other words read no definition well"),
                alternatives,
                confidence: Confidence::Low,
            })
        }
    }
}

/// Plain words: the definitions in the files a search for the goal finds (identifiers split,
/// so `call pillar` finds `call_pillar`), each read against its own name and docstring
/// ([`readings`]): a word that happens to name a definition does not win by itself, the
/// definition whose docstring says what the goal says does. No lookup by name: a word that
/// names nothing costs a scan of every name in the index, and the search finds those that
/// exist.
fn from_words(goal: &str, plain: &[&str], alternatives: Vec<String>) -> ToolResult<Resolution> {
    let words = goal_words(plain);
    let options = index::SearchOptions {
        kinds: vec!["code".into()],
        exclude_kinds: Vec::new(),
        languages: Vec::new(),
        path_prefix: None,
        max_results: SEARCH_READINGS,
        preview_chars: 0,
    };
    // Two searches: BM25's, which weighs names and rare words, and the sentence's, which
    // finds the chunk saying most of the goal's words (a docstring paraphrased); taken in
    // turns, so each one's first hits are read.
    let searched = index::search(goal, &options)?.hits;
    // The second search only adds readings: when it fails, the first one's are read.
    let said = index::search_sentence(
        goal,
        &index::SearchOptions {
            kinds: vec!["code".into(), "code_comment".into()],
            ..options.clone()
        },
    )
    .map_or_else(|_| Vec::new(), |r| r.hits);
    let hits = alternate(said, searched);
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut add = |c: Candidate| add_candidate(&mut candidates, c);
    // The hits, as the definitions they belong to, then the rest of their files.
    let mut files: Vec<(String, Vec<index::Symbol>)> = Vec::new();
    for h in &hits {
        if files.len() < READ_FILES && !files.iter().any(|(p, _)| *p == h.path) {
            let symbols = index::symbols(&h.path).map_or_else(|_| Vec::new(), |f| f.symbols);
            files.push((h.path.clone(), symbols));
        }
    }
    let in_file = |path: &str| {
        files
            .iter()
            .find(|(p, _)| p == path)
            .map_or(&[][..], |(_, s)| s.as_slice())
    };
    for (rank, h) in hits.iter().enumerate() {
        let Some(symbol) = &h.symbol else {
            add(Candidate::new(
                Target::File {
                    path: h.path.clone(),
                },
                h.path.clone(),
                String::new(),
                rank,
            ));
            continue;
        };
        let name = symbol.replace("::", ".");
        match in_file(&h.path).iter().find(|s| qualified(s) == name) {
            Some(s) => add(candidate(s, rank)),
            // A chunk of a definition the file's outline does not list: its name alone.
            None => add(Candidate::new(
                Target::Symbol {
                    path: h.path.clone(),
                    symbol: name.clone(),
                },
                name,
                String::new(),
                rank,
            )),
        }
    }
    for (i, (_, symbols)) in files.iter().enumerate() {
        for s in symbols {
            add(candidate(s, hits.len() + i));
        }
    }
    // Roles per file, asked once for all.
    let mut paths: Vec<String> = candidates.iter().map(|c| path_of(&c.target)).collect();
    paths.sort();
    paths.dedup();
    let roles = index::file_roles(&paths);
    for c in &mut candidates {
        let path = path_of(&c.target);
        if let Ok(i) = paths.binary_search(&path)
            && let Some(role) = roles.get(i)
        {
            c.role = role.clone();
        }
    }
    let readings = readings::weigh(&words, candidates);
    let Some(best) = readings.first() else {
        return Err(ToolError::new(
            codes::NOT_FOUND,
            "the goal names no file, directory or definition the index knows",
        )
        .suggest("name the file in `path`, the definition in `symbol`, or ask about the project with scope \"project\""));
    };
    // Sure only when the words are the reading's and no other reads nearly as well.
    let margin = readings.get(1).map_or(1.0, |second| {
        1.0 - second.score / best.score.max(f32::EPSILON)
    });
    let confidence = if best.share >= SURE_SHARE && margin >= SURE_MARGIN {
        Confidence::High
    } else if best.share >= 0.5 {
        Confidence::Medium
    } else {
        Confidence::Low
    };
    let mut how = format!(
        "search for the goal, read against names and docstrings (accounts for {} of the goal's {} words)",
        best.covered,
        words.len()
    );
    if confidence == Confidence::Low {
        how.push_str("; unsure: pin the target with `symbol` or `path`, or pick an alternative");
    }
    let mut others: Vec<String> = alternatives;
    others.extend(
        readings[1..]
            .iter()
            .take(MAX_ALTERNATIVES)
            .map(|r| described(&r.target)),
    );
    others.dedup();
    Ok(Resolution {
        target: best.target.clone(),
        how,
        alternatives: others,
        confidence,
    })
}

/// The goal's plain words as names and docstrings are read (lowercase, of three letters or
/// more). A word joined by punctuation (a hyphen, a dot, a slash) is read as its parts, as
/// names and docstrings are split, and as one word where that says something its parts do
/// not: "un-escape" is `unescape` and "escape", "percent-encoding" the docstring's "percent
/// encoding" (whose joined form would only count `percent` twice).
fn goal_words(plain: &[&str]) -> Vec<String> {
    let mut words = Vec::new();
    for w in plain {
        let lower = w.to_lowercase();
        let mut pieces: Vec<&str> = lower
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .filter(|p| !p.is_empty())
            .collect();
        if pieces.len() > 1 {
            let joined = pieces.concat();
            if !pieces.iter().any(|p| readings::same_word(&joined, p)) {
                words.push(joined);
            }
            pieces.retain(|p| !STOP.contains(p));
        }
        pieces.dedup();
        words.extend(pieces.into_iter().map(str::to_string));
    }
    words.retain(|w| w.len() >= 3);
    words
}

/// Words a goal says beside a type's name before a member of it may be meant instead.
const MEMBER_WORDS: usize = 2;

/// Kinds of definition that hold members a goal may mean instead.
const CONTAINERS: &[&str] = &[
    "class",
    "struct",
    "impl",
    "trait",
    "interface",
    "enum",
    "module",
    "object",
    "record",
    "extension",
];

/// Words that say what kind of definition a goal means, not which one.
const KIND_WORDS: &[&str] = &[
    "class",
    "classes",
    "method",
    "methods",
    "function",
    "functions",
    "struct",
    "type",
    "trait",
    "interface",
    "enum",
    "module",
    "instance",
    "object",
    "defined",
    "implemented",
];

/// A goal naming a type and saying more (`Flask handle exceptions`, `a Python date for the
/// OFTDate field`) means the member its other words describe, when one clearly does: the
/// type and its members are read against the words (at least [`MEMBER_WORDS`]) its name does
/// not account for, and a member reading better than the type, for at least half of them,
/// and clearly better than every other member, is the target, with the type as its first
/// alternative and confidence at most medium. One more word (`Flask app`) is too little to
/// leave the type for.
fn member_meant(r: Resolution, lower: &[String]) -> Resolution {
    let Target::Symbol { path, symbol } = &r.target else {
        return r;
    };
    let words: Vec<String> = lower
        .iter()
        .filter(|w| w.len() >= 3)
        .filter(|w| {
            ![STOP, WHOLE, KIND_WORDS]
                .iter()
                .any(|l| l.contains(&w.as_str()))
        })
        // The name itself (`OFTDate`, whose parts are o, f, t, date) and its words.
        .filter(|w| !symbol.to_lowercase().split('.').any(|p| p == w.as_str()))
        .filter(|w| !readings::names(symbol, w))
        .cloned()
        .collect();
    if words.len() < MEMBER_WORDS {
        return r;
    }
    let Ok(file) = index::symbols(path) else {
        return r;
    };
    let bare = symbol.rsplit('.').next().unwrap_or(symbol);
    let mut candidates: Vec<Candidate> = Vec::new();
    for s in &file.symbols {
        if qualified(s) == *symbol || s.container.as_deref() == Some(bare) {
            let rank = candidates.len();
            add_candidate(&mut candidates, candidate(s, rank));
        }
    }
    let read = readings::weigh(&words, candidates);
    let own = read
        .iter()
        .find(|x| x.target == r.target)
        .map_or(0.0, |x| x.share);
    let runner_up = read
        .iter()
        .skip(1)
        .find(|x| x.target != r.target)
        .map_or(0.0, |x| x.score);
    let Some(best) = read.first().filter(|b| {
        b.target != r.target
            && b.share >= 0.5
            && b.share > own
            && runner_up < b.score * (1.0 - SURE_MARGIN)
    }) else {
        return r;
    };
    let mut alternatives = vec![described(&r.target)];
    alternatives.extend(
        read[1..]
            .iter()
            .filter(|x| x.target != r.target)
            .take(MAX_ALTERNATIVES - 1)
            .map(|x| described(&x.target)),
    );
    alternatives.extend(r.alternatives);
    Resolution {
        target: best.target.clone(),
        how: format!("{}, then its member the goal's other words describe", r.how),
        alternatives,
        confidence: match r.confidence {
            Confidence::Low => Confidence::Low,
            _ => Confidence::Medium,
        },
    }
}

/// One candidate per definition. A name declared several times (overloads, each its own
/// declaration in TypeScript and Java) is read by all their doc comments: the first may be a
/// signature's one-line `@deprecated`, the implementation's later.
fn add_candidate(candidates: &mut Vec<Candidate>, c: Candidate) {
    match candidates.iter_mut().find(|o| o.target == c.target) {
        Some(o) => o.overload(&c.doc),
        None => candidates.push(c),
    }
}

/// Two rankings merged in turns, the first's first: each hit once (a definition's doc comment
/// counts as the definition).
fn alternate(first: Vec<index::ChunkHit>, second: Vec<index::ChunkHit>) -> Vec<index::ChunkHit> {
    let mut out: Vec<index::ChunkHit> = Vec::with_capacity(first.len() + second.len());
    let (mut a, mut b) = (first.into_iter(), second.into_iter());
    loop {
        let next = match (a.next(), b.next()) {
            (None, None) => break,
            (x, y) => [x, y],
        };
        for hit in next.into_iter().flatten() {
            let same = |o: &index::ChunkHit| o.path == hit.path && o.symbol == hit.symbol;
            if hit.symbol.is_none() || !out.iter().any(same) {
                out.push(hit);
            }
        }
    }
    out
}

fn candidate(s: &index::Symbol, rank: usize) -> Candidate {
    let name = qualified(s);
    Candidate::new(
        Target::Symbol {
            path: s.path.clone(),
            symbol: name.clone(),
        },
        name,
        s.doc.clone().unwrap_or_default(),
        rank,
    )
}

fn path_of(t: &Target) -> String {
    match t {
        Target::Symbol { path, .. } | Target::File { path } | Target::Module { path } => {
            path.clone()
        }
        Target::Project => String::new(),
    }
}

fn described(t: &Target) -> String {
    match t {
        Target::Symbol { path, symbol } => format!("{symbol} in {path}"),
        Target::File { path } | Target::Module { path } => path.clone(),
        Target::Project => "the project".into(),
    }
}

/// The texts a goal quotes in backticks, double or single quotes. A quote opens after a
/// character that is no letter or digit (or at the start) and closes before one (or at the
/// end), so the apostrophe of `backend's` or `don't` quotes nothing.
fn quoted(goal: &str) -> Vec<&str> {
    let bound = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
    let mut out = Vec::new();
    let mut open: Option<(char, usize)> = None;
    let chars: Vec<(usize, char)> = goal.char_indices().collect();
    for (i, &(at, c)) in chars.iter().enumerate() {
        if !matches!(c, '`' | '"' | '\'') {
            continue;
        }
        let before = i.checked_sub(1).map(|j| chars[j].1);
        let after = chars.get(i + 1).map(|&(_, c)| c);
        match open {
            Some((q, start)) if q == c && bound(after) => {
                out.push(&goal[start..at]);
                open = None;
            }
            // An opening quote never closed (`rock 'n roll`) gives way to a later one.
            _ if bound(before) => open = Some((c, at + c.len_utf8())),
            _ => {}
        }
    }
    out
}

fn has_extension(t: &str) -> bool {
    t.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=5).contains(&ext.len())
            && ext.chars().all(|c| c.is_ascii_alphanumeric())
    })
}

/// Words that open a noun phrase: after a goal's first word, they show it is a verb.
const DETERMINERS: &[&str] = &[
    "the", "a", "an", "this", "that", "these", "those", "its", "their", "all", "any", "each",
    "every", "some",
];

/// Whether the goal reads as an order (`Empty the template cache`, `Return the username for
/// this User`): a capitalised first word followed by a determiner is a verb, so the goal is
/// a sentence, whose capitalised words are not names by their capital alone.
fn imperative(tokens: &[&str], lower: &[String]) -> bool {
    tokens.first().is_some_and(|t| titlecase(t))
        && lower
            .get(1)
            .is_some_and(|w| DETERMINERS.contains(&w.as_str()))
}

/// `Register`, `Blueprint`: a capital, then lowercase letters and digits only.
fn titlecase(t: &str) -> bool {
    let mut chars = t.chars();
    chars.next().is_some_and(char::is_uppercase)
        && chars.all(|c| c.is_lowercase() || c.is_ascii_digit())
}

fn code_shaped(t: &str) -> bool {
    let inner_upper =
        t.chars().skip(1).any(|c| c.is_uppercase()) && t.chars().any(|c| c.is_lowercase());
    let leading_upper = t.chars().next().is_some_and(|c| c.is_uppercase())
        && t.len() > 1
        && t.chars().skip(1).any(|c| c.is_lowercase());
    t.contains('_')
        || t.contains("::")
        || t.ends_with("()")
        || inner_upper
        || (leading_upper && t.len() >= 4)
        || (t.contains('.') && !has_extension(t))
}

/// `scope` widens or narrows the target: a file's definition to the file, a file to its
/// directory, anything to the project.
fn apply_scope(r: &mut Resolution, scope: Option<Scope>) {
    let target = std::mem::replace(&mut r.target, Target::Project);
    r.target = match (scope, target) {
        (Some(Scope::Project), _) => Target::Project,
        (Some(Scope::Module), Target::Symbol { path, .. } | Target::File { path }) => {
            Target::Module {
                path: path
                    .rsplit_once('/')
                    .map_or(".".to_string(), |(d, _)| d.to_string()),
            }
        }
        (Some(Scope::File), Target::Symbol { path, .. }) => Target::File { path },
        (_, t) => t,
    };
}

#[cfg(test)]
mod tests {
    use super::imperative;

    fn reads(goal: &str) -> bool {
        let tokens: Vec<&str> = goal.split_whitespace().collect();
        let lower: Vec<String> = tokens.iter().map(|t| t.to_lowercase()).collect();
        imperative(&tokens, &lower)
    }

    #[test]
    fn quotes_open_and_close_at_word_bounds() {
        assert_eq!(
            super::quoted("where is `FooBar` set and 'IN' used, or \"x.y\"?"),
            ["FooBar", "IN", "x.y"]
        );
        assert!(super::quoted("a new instance of this backend's").is_empty());
        assert!(super::quoted("don't stop, it's fine").is_empty());
        assert_eq!(super::quoted("'open to the end"), Vec::<&str>::new());
        assert_eq!(super::quoted("rock 'n roll `Foo` here"), ["Foo"]);
    }

    #[test]
    fn a_hyphenated_word_is_read_as_its_parts_and_as_one() {
        // "percentencoding" would count `percent` twice; "--verbose" is the word; a stop word
        // inside a compound says nothing.
        let words = [
            "Un-escape",
            "an",
            "HTML",
            "percent-encoding",
            "node's",
            "it",
            "--verbose",
            "state-of-the-art",
        ];
        assert_eq!(
            super::goal_words(&words),
            [
                "unescape", "escape", "html", "percent", "encoding", "node's", "verbose", "state",
                "art"
            ]
        );
        let candidate = |name: &str, doc: &str, rank| {
            let target = super::Target::Symbol {
                path: "Entities.java".into(),
                symbol: name.into(),
            };
            super::Candidate::new(target, name.into(), doc.into(), rank)
        };
        let read = crate::readings::weigh(
            &super::goal_words(&["Un-escape", "HTML", "escaped", "string"]),
            vec![
                candidate("Entities.escape", "HTML escape an input string.", 0),
                candidate("Entities.unescape", "Un-escape an HTML escaped string.", 1),
            ],
        );
        assert!(
            matches!(&read[0].target, super::Target::Symbol { symbol, .. } if symbol == "Entities.unescape"),
            "{read:?}"
        );
    }

    #[test]
    fn a_capitalised_verb_before_a_determiner_makes_a_sentence() {
        assert!(reads("Empty the template cache"));
        assert!(reads("Return the username for this User"));
        assert!(!reads("Blueprint registration"));
        assert!(!reads("empty the cache"));
        assert!(!reads("RequestContext the session"));
    }
}
