//! Goal resolution: from the agent's words (and `path` / `symbol` when given) to what to
//! analyse: a definition, a file, a directory or the project. It reports how it decided and
//! what else it considered, so a wrong guess costs one more call, not three.

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

/// Search hits weighed as readings of a plain-English goal.
const SEARCH_READINGS: u32 = 10;

/// Definition lookups one goal may cost per step: a pasted issue text has hundreds of
/// words, and each lookup is a host call.
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
        (None, Some(symbol)) => by_symbol_name(symbol, "symbol argument")?.ok_or_else(|| {
            ToolError::new(codes::NOT_FOUND, format!("no definition named {symbol}"))
                .suggest("check the spelling, or pass `path` with the file that defines it")
        })?,
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

/// A definition by name (`name`, `Container.name`, `Container::name`): exact matches first.
fn by_symbol_name(name: &str, how: &str) -> ToolResult<Option<Resolution>> {
    let (container, bare) = split_qualified(name);
    let matches = index::find_symbol(bare, 20)?;
    let exact: Vec<&index::Symbol> = matches
        .iter()
        .filter(|m| m.how == index::MatchKind::Exact)
        .map(|m| &m.symbol)
        .filter(|s| container.is_none_or(|c| s.container.as_deref() == Some(c)))
        .collect();
    let Some(best) = exact.iter().copied().min_by_key(|s| rank_key(s)) else {
        return Ok(None);
    };
    let qualified = |s: &index::Symbol| match &s.container {
        Some(c) => format!("{c}.{}", s.name),
        None => s.name.clone(),
    };
    let alternatives: Vec<String> = exact
        .iter()
        .filter(|s| !std::ptr::eq(**s, best))
        .take(5)
        .map(|s| format!("{} in {}", qualified(s), s.path))
        .collect();
    Ok(Some(Resolution {
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
    }))
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
    let quoted: Vec<&str> = goal
        .split(['`', '"', '\''])
        .skip(1)
        .step_by(2)
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
    // 2. A quoted or code-shaped name: CamelCase, snake_case, dotted or `::` paths.
    let code_names = quoted.iter().copied().chain(
        tokens
            .iter()
            .zip(&lower)
            .filter(|(t, l)| {
                code_shaped(t) && !STOP.contains(&l.as_str()) && !WHOLE.contains(&l.as_str())
            })
            .map(|(t, _)| *t),
    );
    for t in code_names.take(MAX_NAME_LOOKUPS) {
        if let Some(mut r) = by_symbol_name(t, "symbol named in the goal")? {
            r.alternatives.extend(alternatives);
            return Ok(r);
        }
        alternatives.push(format!("{t} (no definition of that name)"));
    }
    // 3. A directory named by a plain word, for whole-of questions first.
    let plain: Vec<&str> = tokens
        .iter()
        .zip(&lower)
        .filter(|(_, l)| !STOP.contains(&l.as_str()) && !WHOLE.contains(&l.as_str()))
        .map(|(t, _)| *t)
        .collect();
    for t in &plain {
        if let Ok(entry) = workspace::stat(t)
            && entry.kind == workspace::EntryKind::Directory
        {
            return Ok(Resolution {
                target: Target::Module { path: entry.path },
                how: format!("directory named in the goal ({t})"),
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
    from_words(goal, &plain, alternatives)
}

/// Plain words: what a search for the goal ranks first, checked against the definitions
/// the goal's words name (`dispatch`, `call pillar` -> `call_pillar`). A word that happens to
/// name a definition does not win over the search by itself: it is taken when the search
/// agrees, else listed as an alternative.
fn from_words(goal: &str, plain: &[&str], alternatives: Vec<String>) -> ToolResult<Resolution> {
    // Each word alone, then neighbours joined (`call pillar` -> call_pillar, callPillar).
    let mut names: Vec<String> = plain
        .iter()
        .filter(|t| t.len() >= 4)
        .map(|t| t.to_string())
        .collect();
    for pair in plain.windows(2) {
        names.push(format!(
            "{}_{}",
            pair[0].to_lowercase(),
            pair[1].to_lowercase()
        ));
        let mut camel = pair[0].to_lowercase();
        let mut rest = pair[1].chars();
        if let Some(first) = rest.next() {
            camel.extend(first.to_uppercase());
            camel.push_str(&rest.as_str().to_lowercase());
        }
        names.push(camel);
    }
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    names.dedup();
    let options = index::SearchOptions {
        kinds: vec!["code".into()],
        exclude_kinds: Vec::new(),
        languages: Vec::new(),
        path_prefix: None,
        max_results: SEARCH_READINGS,
        preview_chars: 0,
    };
    let hits = index::search(goal, &options)?.hits;
    let hit_target = |h: &index::ChunkHit| match &h.symbol {
        Some(symbol) => Target::Symbol {
            path: h.path.clone(),
            symbol: symbol.replace("::", "."),
        },
        None => Target::File {
            path: h.path.clone(),
        },
    };
    let described = |t: &Target| match t {
        Target::Symbol { path, symbol } => format!("{symbol} in {path}"),
        Target::File { path } | Target::Module { path } => path.clone(),
        Target::Project => "the project".into(),
    };
    // The definitions the goal's words name, as the search would show them.
    let mut named: Vec<Resolution> = Vec::new();
    for name in names.iter().take(MAX_NAME_LOOKUPS) {
        if let Some(r) = by_symbol_name(name, "words of the goal joined into a name")? {
            named.push(r);
        }
        if named.len() == 3 {
            break;
        }
    }
    // Every reading: the search's hits in rank order, then the definitions the words name;
    // each with the goal's words it accounts for (in its name, or the line the search
    // matched). The reading that accounts for the most words wins, the search's rank
    // breaking ties: a word that happens to name a definition does not win by itself.
    let words: Vec<String> = plain
        .iter()
        .map(|w| w.to_lowercase())
        .filter(|w| w.len() >= 3)
        .collect();
    let mut readings: Vec<(Target, usize)> = hits
        .iter()
        .map(|h| {
            let text = format!("{} {}", h.symbol.as_deref().unwrap_or(""), h.snippet);
            (hit_target(h), accounted(&words, &text))
        })
        .collect();
    for r in &named {
        if !readings.iter().any(|(t, _)| *t == r.target) {
            let name = match &r.target {
                Target::Symbol { symbol, .. } => symbol.as_str(),
                _ => "",
            };
            readings.push((r.target.clone(), accounted(&words, name)));
        }
    }
    let Some(best) = (0..readings.len()).max_by_key(|&i| (readings[i].1, std::cmp::Reverse(i)))
    else {
        return Err(ToolError::new(
            codes::NOT_FOUND,
            "the goal names no file, directory or definition the index knows",
        )
        .suggest("name the file in `path`, the definition in `symbol`, or ask about the project with scope \"project\""));
    };
    let (target, covered) = readings[best].clone();
    let share = covered as f32 / words.len().max(1) as f32;
    let confidence = if share >= 0.99 {
        Confidence::High
    } else if share >= 0.5 {
        Confidence::Medium
    } else {
        Confidence::Low
    };
    let from_search = best < hits.len();
    let mut how = format!(
        "{} (accounts for {covered} of the goal's {} words)",
        if from_search {
            "search for the goal"
        } else {
            "a definition the goal's words name"
        },
        words.len()
    );
    if confidence == Confidence::Low {
        how.push_str("; unsure: pin the target with `symbol` or `path`, or pick an alternative");
    }
    let mut others: Vec<String> = alternatives;
    others.extend(
        readings
            .iter()
            .filter(|(t, _)| *t != target)
            .map(|(t, _)| described(t)),
    );
    others.dedup();
    Ok(Resolution {
        target,
        how,
        alternatives: others,
        confidence,
    })
}

/// How many of `words` a name or line accounts for: a word of it, or one sharing a stem of
/// five letters (`saved` and `save_session`, `handling` and `handle`).
fn accounted(words: &[String], text: &str) -> usize {
    let parts: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .flat_map(split_identifier)
        .map(|p| p.to_lowercase())
        .filter(|p| !p.is_empty())
        .collect();
    let stem = |a: &str, b: &str| {
        let common = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
        a == b || common >= 5 || (common >= 4 && common == a.len().min(b.len()))
    };
    words
        .iter()
        .filter(|w| parts.iter().any(|p| stem(w, p)))
        .count()
}

/// `save_session_cookie` and `saveSessionCookie` into their words.
fn split_identifier(token: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in token.split('_') {
        let mut current = String::new();
        for c in part.chars() {
            if c.is_uppercase() && !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            current.push(c);
        }
        out.push(current);
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
