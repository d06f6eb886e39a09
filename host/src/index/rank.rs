//! Ranking the chunks a search found as an agent needs them: evidence gathered per file (its
//! best chunks, the names it defines, the paths and frames the query names), one item per file
//! for the first files (the first file's second part among them), a symbol and its docstring
//! one item, a symbol's further pieces after the file's other symbols, tests, changelogs and
//! generated files after the code they describe unless the query is about them, and on every
//! hit the few signals that put it there (`why`).

use super::fulltext::{Centrality, Hit};
use super::query_reader::{self, ReadQuery};
use super::roles::{Role, Roles};
use std::collections::{HashMap, HashSet};

/// Weight of a file's 2nd and 3rd best chunks against its best: more evidence in one file
/// counts, without letting a long file win on volume.
const CHUNK_DECAY: [f32; 5] = [1.0, 0.6, 0.45, 0.35, 0.25];
/// Defining a name the query uses (before the name's rarity).
const DEFINES: f32 = 0.6;
/// The query names the file: a path or traceback frame matching two components or more.
const NAMED: f32 = 1.0;
/// A dotted name that spells the file's module.
const MODULE: f32 = 0.35;
/// Only the file name agrees with a named path.
const NAME_ONLY: f32 = 0.15;
/// Tests, changelogs, generated and vendored files, when the query is not about them.
const DEMOTED: f32 = 0.35;
/// Within a file, a chunk defining a word of the query (a name or a plain word: `delete`,
/// `merge`) is shown before chunks that only mention the words.
const NAMED_IN_FILE: f32 = 0.4;
/// A name made of several query words, against a name that is one: weaker evidence (most
/// names are made of common words).
const COMPOUND: f32 = 0.5;
/// Weight of a file's whole-file BM25, as a share of the best file's (pasted texts only).
const WHOLE_FILE: f32 = 1.5;
/// Weight of a file holding all of the query's words (see coverage in `rank`).
const COVERAGE: f32 = 0.5;
/// Coverage is a signal of texts, not of two-word queries.
const COVERAGE_MIN_WORDS: usize = 6;
/// Files whose definitions of query words are looked up when the search did not bring them.
pub const SUBJECT_FILES: usize = 8;
/// Files shown (each by its best chunk) before merit decides. When the ranking has room for
/// one more, the first file (right about half the time) shows its second part before the
/// last of them, which a default page of six still shows: the definition a text is about is
/// often the second of its file.
const DIVERSE: usize = 5;
/// Weight, within a file, of a chunk holding a line the query quotes (pasted code).
const QUOTED: f32 = 0.5;
/// Weight of a file's PageRank percentile over imports (pasted texts only): a tie-breaker,
/// not evidence (0.3 or more traded leaf files' hits for central ones').
const CENTRAL: f32 = 0.1;
/// A file's centrality percentile from which its `why` says so.
const CENTRAL_SAID: f32 = 0.95;
/// Query words listed in a `why`.
const WHY_WORDS: usize = 4;

/// What the project says about its files beside a text's evidence: how central each is (when
/// the graphs are built) and the role it plays (source, test, changelog, generated).
pub struct Priors<'a> {
    pub centrality: Option<&'a dyn Centrality>,
    pub roles: &'a Roles,
}

/// One candidate chunk and what speaks for it.
struct Candidate {
    hit: Hit,
    /// Its BM25 score for the whole query (0 when only the definition search found it).
    lexical: f32,
    defines: Vec<String>,
    /// The plain query words its symbol is named by: one word, or the words a compound name
    /// is made of (`_check_choices`: check, choices). Counted within its file, not for it.
    named: Vec<String>,
    /// Its docstring was folded into it.
    with_doc: bool,
    /// It is code holding a line the query quotes.
    quoted: bool,
}

impl Candidate {
    fn new(
        read: &ReadQuery,
        hit: Hit,
        lexical: f32,
        defines: Vec<String>,
        named: Vec<String>,
    ) -> Self {
        // Code only: a document section is long, and what an issue quotes is code.
        let code =
            hit.kind == super::chunks::kind::CODE || hit.kind == super::chunks::kind::CODE_COMMENT;
        Candidate {
            quoted: code && read.quotes(&hit.body),
            hit,
            lexical,
            defines,
            named,
            with_doc: false,
        }
    }
}

/// Ranks `found` (the query's chunks) and `definitions` (chunks defining one of its names)
/// into at most `limit` hits, best first, each with its `why`, asking the index what
/// `index` offers as it goes.
pub fn rank(
    read: &ReadQuery,
    found: Vec<Hit>,
    definitions: Vec<Hit>,
    whole: &HashMap<String, f32>,
    priors: &Priors,
    limit: usize,
    index: Lookups,
) -> Vec<Hit> {
    let Lookups {
        in_files,
        read_text,
    } = index;
    let (centrality, roles) = (priors.centrality, priors.roles);
    let names: Vec<&str> = read.code_names();
    let plain: Vec<&str> = read.plain_names();
    // How many files define each name: a name declared everywhere (`get`, `__init__`)
    // says little about where to look.
    let mut definers: HashMap<&str, std::collections::HashSet<&str>> = HashMap::new();
    for hit in &definitions {
        if let Some(name) = defined_name(hit, &names) {
            definers.entry(name).or_default().insert(hit.path.as_str());
        }
    }
    let rarity: HashMap<String, f32> = definers
        .iter()
        .map(|(name, files)| (name.to_string(), 1.0 / (files.len() as f32).sqrt()))
        .collect();
    let weights = read.weights();

    let mut candidates: Vec<Candidate> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    for (hit, from_query) in found
        .into_iter()
        .map(|h| (h, true))
        .chain(definitions.into_iter().map(|h| (h, false)))
    {
        if let Some(&i) = at.get(&hit.chunk_id) {
            if from_query {
                candidates[i].lexical = candidates[i].lexical.max(hit.score);
            }
            continue;
        }
        let defines = defined_name(&hit, &names)
            .map(|n| vec![n.to_string()])
            .unwrap_or_default();
        let named = if defines.is_empty() {
            named_by(&hit, &plain)
        } else {
            Vec::new()
        };
        at.insert(hit.chunk_id.clone(), candidates.len());
        let lexical = if from_query { hit.score } else { 0.0 };
        candidates.push(Candidate::new(read, hit, lexical, defines, named));
    }
    fold_docstrings(&mut candidates);

    let top = candidates
        .iter()
        .map(|c| c.lexical)
        .fold(f32::MIN_POSITIVE, f32::max);
    let chunk_score = |c: &Candidate| {
        let defined: f32 = c
            .defines
            .iter()
            .map(|n| {
                let weight = weights.get(n.as_str()).copied().unwrap_or(1.0) / 2.0;
                DEFINES * weight * rarity.get(n).copied().unwrap_or(1.0)
            })
            .sum();
        c.lexical / top + defined
    };

    // Files: their best chunks, what the query names, their role.
    let mut files: HashMap<String, File> = HashMap::new();
    for (i, c) in candidates.iter().enumerate() {
        files
            .entry(c.hit.path.clone())
            .or_insert_with(|| File {
                chunks: Vec::new(),
                shown: Vec::new(),
                score: 0.0,
                why: Vec::new(),
            })
            .chunks
            .push((chunk_score(c), i));
    }
    let best_whole = whole.values().copied().fold(f32::MIN_POSITIVE, f32::max);
    for (path, file) in &mut files {
        file.chunks.sort_by(|a, b| b.0.total_cmp(&a.0));
        file.shown = file
            .chunks
            .iter()
            .map(|&(score, i)| (shown_score(read, &candidates[i], top), score, i))
            .collect();
        file.shown.sort_by(|a, b| b.0.total_cmp(&a.0));
        file.score = file
            .chunks
            .iter()
            .zip(CHUNK_DECAY)
            .map(|((s, _), d)| s * d)
            .sum();
        let named = read
            .mentions
            .iter()
            .map(|m| (query_reader::mention_match(m, path), m))
            .max_by_key(|(shared, m)| (*shared, m.frame));
        if let Some((shared, mention)) = named.filter(|(s, _)| *s > 0) {
            let (bonus, what) = match (mention.dotted, shared) {
                (true, _) => (MODULE, format!("module {}", mention.parts.join("."))),
                (false, 1) => (NAME_ONLY, "file name named in the query".to_string()),
                (false, _) if mention.frame => (NAMED, "traceback frame".to_string()),
                (false, _) => (NAMED, "path named in the query".to_string()),
            };
            file.score += bonus;
            file.why.push(what);
        }
        if let Some(share) = whole.get(path).map(|s| s / best_whole) {
            file.score += WHOLE_FILE * share;
            if share >= 0.8 {
                file.why.push("the whole file matches the text".to_string());
            }
        }
        // A pasted text's close races between files go to the one more of the project
        // imports (measured: the fix's file is more often central; short queries, whose
        // few words leave more ties, did worse with it).
        if let Some(p) = centrality.filter(|_| read.long).and_then(|c| c.file(path)) {
            file.score += CENTRAL * p;
            if p >= CENTRAL_SAID {
                let top = ((1.0 - p) * 100.0).ceil().max(1.0);
                file.why
                    .push(format!("central: top {top:.0}% of files by imports"));
            }
        }
        let demote = match roles.of(path) {
            Role::Source => None,
            Role::Test if read.about_tests => None,
            Role::Test => Some("test file, ranked after source"),
            Role::Changelog => Some("changelog, ranked after definitions"),
            Role::Generated => Some("generated or vendored, ranked last"),
        };
        if let Some(what) = demote {
            file.score *= DEMOTED;
            file.why.push(what.to_string());
        }
        if file.chunks.len() > 1 {
            file.why
                .push(format!("{} matching chunks in the file", file.chunks.len()));
        }
    }
    // Coverage: how much of the query's weight the file's found chunks hold between them.
    // A file the text is about tends to hold most of its words somewhere, not one chunk
    // holding a few of them many times.
    let wanted = coverage_words(read);
    let total: f32 = wanted.iter().map(|(_, w)| w).sum();
    if total > 0.0 && wanted.len() >= COVERAGE_MIN_WORDS {
        for file in files.values_mut() {
            let bodies: Vec<String> = file
                .chunks
                .iter()
                .map(|&(_, i)| candidates[i].hit.body.to_lowercase())
                .collect();
            let words: HashSet<&str> = bodies
                .iter()
                .flat_map(|b| query_reader::text_words(b))
                .collect();
            let held: f32 = wanted
                .iter()
                .filter(|(k, _)| words.contains(k))
                .map(|(_, w)| w)
                .sum();
            file.score += COVERAGE * held / total;
        }
    }
    let mut ranked: Vec<(String, f32)> = files.iter().map(|(p, f)| (p.clone(), f.score)).collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let first: Vec<String> = ranked
        .iter()
        .take(SUBJECT_FILES)
        .map(|(p, _)| p.clone())
        .collect();
    // The first files' definitions of query words the search did not bring: each may be
    // the one its file is shown by (a long function the text names once in its title ranks
    // below short ones that repeat its words).
    if !first.is_empty() {
        let known: HashSet<(String, String)> = candidates
            .iter()
            .filter_map(|c| Some((c.hit.path.clone(), c.hit.symbol.clone()?)))
            .collect();
        let mut seen: HashSet<(String, String)> = HashSet::new();
        let mut extra: Vec<Hit> = in_files(&first)
            .into_iter()
            .filter(|h| h.kind == super::chunks::kind::CODE && first.contains(&h.path))
            .filter(|h| {
                let key = (h.path.clone(), h.symbol.clone().unwrap_or_default());
                !known.contains(&key) && defined_name(h, &plain).is_some()
            })
            .collect();
        extra.sort_by_key(|h| h.start_line);
        for hit in extra {
            let key = (hit.path.clone(), hit.symbol.clone().unwrap_or_default());
            if !seen.insert(key) {
                continue;
            }
            let named = named_by(&hit, &plain);
            let c = Candidate::new(read, hit, 0.0, Vec::new(), named);
            let i = candidates.len();
            let shown = shown_score(read, &c, top);
            let file = files.get_mut(&c.hit.path).expect("one of the first files");
            file.shown.push((shown, 0.0, i));
            file.shown.sort_by(|a, b| b.0.total_cmp(&a.0));
            candidates.push(c);
        }
    }
    for file in files.values_mut() {
        file.shown = distinct_first(std::mem::take(&mut file.shown), &candidates);
    }
    // The text of what is shown, read now: most chunks weighed above are never shown. A
    // chunk whose text cannot be read (its file changed since the pass) gives way to the
    // next pick.
    let mut tries = 0;
    loop {
        let picks = pick(&files, &ranked, &candidates, limit);
        let mut out: Vec<Hit> = picks
            .iter()
            .map(|p| candidates[p.candidate].hit.clone())
            .collect();
        read_text(&mut out);
        let unreadable: HashSet<usize> = out
            .iter()
            .zip(&picks)
            .filter(|(hit, _)| hit.pending.is_some())
            .map(|(_, p)| p.candidate)
            .collect();
        tries += 1;
        if unreadable.is_empty() || tries == PICK_TRIES {
            return out
                .into_iter()
                .zip(picks)
                .filter(|(hit, _)| hit.pending.is_none())
                .map(|(mut hit, p)| {
                    hit.score = p.score;
                    hit.why = why(read, &candidates[p.candidate], &hit, &p.signals);
                    if p.part > 0 {
                        hit.why.push(format!("part {} of this file", p.part + 1));
                    }
                    hit
                })
                .collect();
        }
        for file in files.values_mut() {
            file.shown.retain(|&(_, _, i)| !unreadable.contains(&i));
        }
    }
}

/// A file's evidence: its best chunks, what the query names, its role.
struct File {
    chunks: Vec<(f32, usize)>,
    /// The chunks in the order they are shown (definitions of the text's subject first),
    /// each with its key for that order and its chunk score.
    shown: Vec<(f32, f32, usize)>,
    score: f32,
    why: Vec<String>,
}

/// One item of the answer as picked: which candidate, the signals of its file when it is the
/// file's first, which part of the file it is, and its score.
struct Pick {
    candidate: usize,
    signals: Vec<String>,
    part: usize,
    score: f32,
}

/// Picks to make again when some picked chunks cannot be read, at most.
const PICK_TRIES: usize = 3;

/// The answer's order: the best chunk of the first DIVERSE files, the first file's second
/// part before the last of them, then by merit: a file's next chunk competes with the next
/// file's best at its file's score, decayed by round and by how far the chunk falls behind
/// the file's best. A file that clearly dominates shows a second or third part; a close race
/// shows more files.
fn pick(
    files: &HashMap<String, File>,
    ranked: &[(String, f32)],
    candidates: &[Candidate],
    limit: usize,
) -> Vec<Pick> {
    let order: Vec<&File> = ranked.iter().map(|(p, _)| &files[p]).collect();
    let mut lead: Vec<usize> = (0..order.len().min(DIVERSE)).collect();
    // A second part of another symbol (`distinct_first` leaves a repeat second only in a
    // file of one symbol's pieces).
    let second_is_other = order.first().is_some_and(|file| {
        let symbol = |round: usize| {
            file.shown
                .get(round)
                .map(|&(_, _, i)| candidates[i].hit.symbol.as_deref())
        };
        matches!((symbol(0), symbol(1)), (Some(first), Some(second)) if second.is_none() || second != first)
    });
    if lead.len() == DIVERSE && limit > DIVERSE && second_is_other {
        lead.insert(DIVERSE - 1, 0);
    }
    let mut picks: Vec<Pick> = Vec::new();
    let mut last = f32::MAX;
    let mut taken = vec![0usize; order.len()];
    let priority = |file: &File, round: usize| -> Option<f32> {
        let &(_, score, _) = file.shown.get(round)?;
        if round == 0 {
            return Some(file.score);
        }
        let best = file.chunks[0].0.max(f32::MIN_POSITIVE);
        let decay = CHUNK_DECAY.get(round).copied().unwrap_or(0.2);
        Some(file.score * decay * (score / best).min(1.0))
    };
    while picks.len() < limit {
        let pick = match lead.get(picks.len()) {
            // A lead file left without the part it was to show (its chunks could not be
            // read) gives way to merit.
            Some(&f) if order[f].shown.len() > taken[f] => Some(f),
            _ => (0..order.len())
                .filter_map(|f| priority(order[f], taken[f]).map(|p| (p, f)))
                .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)))
                .map(|(_, f)| f),
        };
        let Some(f) = pick else { break };
        let (round, file) = (taken[f], order[f]);
        let Some(&(_, _, candidate)) = file.shown.get(round) else {
            break;
        };
        let raw = priority(file, round).unwrap_or(0.0);
        taken[f] += 1;
        // Scores fall monotonically in answer order.
        last = last.min(raw);
        picks.push(Pick {
            candidate,
            signals: if round == 0 {
                file.why.clone()
            } else {
                Vec::new()
            },
            part: round,
            score: last,
        });
    }
    picks
}

/// Where a chunk stands within its file: its share of the best match, and the prominence
/// in the text of the word it defines (not the word's rarity across files: within one file
/// the text's subject is what it names most, first of all in its title).
fn shown_score(read: &ReadQuery, c: &Candidate, top: f32) -> f32 {
    let path = c.hit.path.as_str();
    let defined = c
        .defines
        .iter()
        .map(|n| read.prominence_in(n, path))
        .fold(0.0, f32::max);
    let named = c
        .named
        .iter()
        .map(|n| read.prominence_in(n, path))
        .fold(0.0, f32::max);
    let subject = defined.max(if c.named.len() > 1 {
        COMPOUND * named
    } else {
        named
    });
    let quoted = if c.quoted { QUOTED } else { 0.0 };
    c.lexical / top + NAMED_IN_FILE * subject + quoted
}

/// A file's chunks in the order they are shown, with the repeats of a symbol already shown
/// (a long class's other pieces) after every distinct one: one thing does not fill the
/// file's slots.
fn distinct_first(
    shown: Vec<(f32, f32, usize)>,
    candidates: &[Candidate],
) -> Vec<(f32, f32, usize)> {
    let mut seen: HashSet<&str> = HashSet::new();
    let (first, repeats): (Vec<_>, Vec<_>) = shown.into_iter().partition(|&(_, _, i)| {
        candidates[i]
            .hit
            .symbol
            .as_deref()
            .is_none_or(|symbol| seen.insert(symbol))
    });
    first.into_iter().chain(repeats).collect()
}

/// The query name a chunk defines: its symbol's last part (`Type::method` defines `method`;
/// a class's own chunk defines the class).
fn defined_name<'a>(hit: &Hit, names: &[&'a str]) -> Option<&'a str> {
    let symbol = hit.symbol.as_deref()?;
    let last = symbol
        .rsplit([':', '.'])
        .next()
        .unwrap_or(symbol)
        .to_lowercase();
    let last = last.trim_matches('_');
    names
        .iter()
        .copied()
        .find(|n| n.trim_matches('_') == last && !last.is_empty())
}

/// The plain query words a chunk's symbol is named by: its last part whole, or the two or
/// more words a compound name is made of (`_check_choices`, `setGroupBy`), each one of
/// `plain`. A name built of the text's words is what a description of behaviour points at
/// when it never spells the name.
fn named_by(hit: &Hit, plain: &[&str]) -> Vec<String> {
    if let Some(whole) = defined_name(hit, plain) {
        return vec![whole.to_string()];
    }
    let Some(symbol) = hit.symbol.as_deref() else {
        return Vec::new();
    };
    let last = symbol.rsplit([':', '.']).next().unwrap_or(symbol);
    let parts = identifier_parts(last);
    if parts.len() >= 2 && parts.iter().all(|p| plain.contains(&p.as_str())) {
        parts
    } else {
        Vec::new()
    }
}

/// An identifier's words, lower case: split at `_` and at lower-to-upper case changes.
fn identifier_parts(name: &str) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for ch in name.chars() {
        if (ch == '_' || (ch.is_uppercase() && previous_lower)) && !current.is_empty() {
            parts.push(std::mem::take(&mut current));
        }
        if ch != '_' {
            current.extend(ch.to_lowercase());
        }
        previous_lower = ch.is_lowercase() || ch.is_ascii_digit();
    }
    if !current.is_empty() {
        parts.push(current);
    }
    parts
}

/// A docstring chunk and the code chunk of the same symbol in the same file become one
/// candidate: the code, with the better of the two scores (and the docstring's names).
fn fold_docstrings(candidates: &mut Vec<Candidate>) {
    let mut code_of: HashMap<(String, String), usize> = HashMap::new();
    for (i, c) in candidates.iter().enumerate() {
        if c.hit.kind == super::chunks::kind::CODE
            && let Some(symbol) = &c.hit.symbol
        {
            code_of
                .entry((c.hit.path.clone(), symbol.clone()))
                .or_insert(i);
        }
    }
    let mut drop = vec![false; candidates.len()];
    for i in 0..candidates.len() {
        let c = &candidates[i];
        if c.hit.kind != super::chunks::kind::CODE_COMMENT {
            continue;
        }
        let Some(symbol) = &c.hit.symbol else {
            continue;
        };
        let Some(&code) = code_of.get(&(c.hit.path.clone(), symbol.clone())) else {
            continue;
        };
        let (lexical, defines, named) = (c.lexical, c.defines.clone(), c.named.clone());
        let quoted = c.quoted;
        let target = &mut candidates[code];
        target.quoted |= quoted;
        if target.named.is_empty() && target.defines.is_empty() {
            target.named = named;
        }
        target.lexical = target.lexical.max(lexical) + 0.25 * target.lexical.min(lexical);
        for name in defines {
            if !target.defines.contains(&name) {
                target.defines.push(name);
            }
        }
        target.with_doc = true;
        drop[i] = true;
    }
    let mut i = 0;
    candidates.retain(|_| {
        i += 1;
        !drop[i - 1]
    });
}

/// What ranking asks the index for while it ranks.
pub struct Lookups<'a> {
    /// Asked once, for the first [`SUBJECT_FILES`] files, for their chunks defining a word of
    /// the query: the search may have missed the definition a text is about in a file it
    /// ranks first.
    pub in_files: &'a mut dyn FnMut(&[String]) -> Vec<Hit>,
    /// Reads the text of the hits shown that wait for it (`Hit::pending`); one it leaves
    /// waiting is left out. The hits weighed need theirs only when [`weighs_text`].
    pub read_text: &'a mut dyn FnMut(&mut [Hit]),
}

/// Whether ranking weighs the text of the chunks it is given, not only their names, paths
/// and scores: when the query quotes lines (code pasted from a file) or is a text long
/// enough for its coverage of files to count. Otherwise only the shown hits are read.
pub fn weighs_text(read: &ReadQuery) -> bool {
    read.quotes_lines() || coverage_words(read).len() >= COVERAGE_MIN_WORDS
}

/// The query words a file's coverage counts, with their weights.
fn coverage_words(read: &ReadQuery) -> Vec<(&str, f32)> {
    read.words
        .iter()
        .filter(|w| w.weight > query_reader::WEAK_WEIGHT)
        .map(|w| (w.key(), w.weight))
        .filter(|(k, _)| k.chars().count() >= 3)
        .collect()
}

/// The few signals behind one item: names it defines, file-level signals, and the heaviest
/// query words it contains.
fn why(read: &ReadQuery, c: &Candidate, hit: &Hit, file: &[String]) -> Vec<String> {
    let mut out: Vec<String> = c.defines.iter().map(|n| format!("defines {n}")).collect();
    match c.named.as_slice() {
        [] => {}
        [one] => out.push(format!("defines {one}")),
        parts => out.push(format!(
            "name made of the query's words: {}",
            parts.join(", ")
        )),
    }
    out.extend(file.iter().cloned());
    let lower = |s: &str| s.to_lowercase();
    let haystack = format!(
        "{} {} {}",
        lower(&hit.path),
        lower(hit.symbol.as_deref().unwrap_or("")),
        lower(&hit.body)
    );
    let matched: Vec<&str> = read
        .words
        .iter()
        .map(|w| w.key())
        .filter(|k| {
            k.chars().count() > 2 && !c.defines.iter().chain(c.named.iter()).any(|d| d == k)
        })
        .filter(|k| haystack.contains(k))
        .take(WHY_WORDS)
        .collect();
    if !matched.is_empty() {
        out.push(format!("matches {}", matched.join(", ")));
    }
    let phrases = read
        .phrases
        .iter()
        .filter(|p| {
            let words: Vec<&str> = p
                .iter()
                .filter(|t| t.position_length == 1)
                .map(|t| t.text.as_str())
                .collect();
            words.len() > 1 && contains_in_order(&haystack, &words)
        })
        .count();
    if phrases > 0 {
        out.push(format!("quoted text ({phrases})"));
    }
    if c.quoted {
        out.push("the query quotes its code".to_string());
    }
    if c.with_doc {
        out.push("docstring matches too".to_string());
    }
    if out.is_empty() {
        out.push("text match".to_string());
    }
    out
}

/// The words occur in order, each soon after the previous one (a quoted fragment).
fn contains_in_order(text: &str, words: &[&str]) -> bool {
    let Some(first) = words.first() else {
        return false;
    };
    text.match_indices(first).any(|(at, _)| {
        let mut pos = at + first.len();
        words[1..].iter().all(|w| {
            let window_end = (pos + 40 + w.len()).min(text.len());
            let window = text.get(pos..window_end).unwrap_or("");
            match window.find(w) {
                Some(found) => {
                    pos += found + w.len();
                    true
                }
                None => false,
            }
        })
    })
}

#[cfg(test)]
mod tests;
