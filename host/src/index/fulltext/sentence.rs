//! Searching for what a plain-English sentence describes ("check whether the page is already
//! cached and return the cached version"). BM25 sums each word's score, so a chunk saying one
//! of the words many times (`version` in a dozen version helpers) outranks the one saying all
//! of them once, which is the docstring the sentence paraphrases. Here a chunk scores by the
//! words it holds, each once and weighed by its rarity, and must hold at least half of the
//! words the index knows (of the sentence's heaviest [`MAX_WORDS`]; numbers, one-letter
//! fragments and stop words aside); BM25 only breaks ties. Words match their common
//! inflections (`cached` finds `cache`, `caches`), as a sentence rarely uses the docstring's
//! exact forms.

use super::{Fulltext, Hit, SearchRequest, chunk_count, stats};
use crate::index::query_reader::{COMMON_SHARE, ReadQuery, WEAK_WEIGHT};
use anyhow::Result;
use std::collections::HashSet;
use tantivy::Term;
use tantivy::query::{BooleanQuery, BoostQuery, ConstScoreQuery, Occur, Query, TermQuery};
use tantivy::schema::IndexRecordOption;

/// Words of a sentence weighed (the heaviest; a pasted text is cut here).
const MAX_WORDS: usize = 16;
/// The share of the sentence's words a chunk must hold.
const REQUIRED_SHARE: f32 = 0.5;
/// BM25's weight against the words held: a tie-breaker between chunks holding the same words.
const BM25_WEIGHT: f32 = 0.1;
/// Inflections are sought for words of at least this many letters, and a suffix is cut only
/// when this many letters stay (`string` is no `str`, `notes` no `not`).
const MIN_STEM: usize = 4;

impl Fulltext {
    /// Chunks holding most of `read`'s words, scored by the rarity of the words each holds
    /// (each once), best first, within the request's filters; and how many matched.
    pub fn sentence(&self, read: &ReadQuery, request: &SearchRequest) -> Result<(Vec<Hit>, usize)> {
        let f = self.fields;
        let searcher = self.reader.searcher();
        let chunks = chunk_count(&searcher, f).max(1) as f32;
        let common = chunks * COMMON_SHARE;
        // Each word's clause, and whether it is a prose word over a tenth of all chunks.
        let mut held: Vec<(Box<dyn Query>, bool)> = Vec::new();
        let mut bm25: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        // A form belongs to the first word reaching it: `cache ... cached` is one word.
        let mut taken: HashSet<String> = HashSet::new();
        for word in read
            .words
            .iter()
            .filter(|w| w.weight > WEAK_WEIGHT)
            .take(MAX_WORDS)
        {
            let forms = forms(word.key());
            if forms.iter().any(|form| taken.contains(form)) {
                continue;
            }
            let mut any: Vec<(Occur, Box<dyn Query>)> = Vec::new();
            let mut freq = 0u64;
            for form in forms {
                let term = Term::from_field_text(f.body, &form);
                let df = stats::live_doc_freq(&searcher, &term)?;
                if df == 0 {
                    continue;
                }
                freq = freq.max(df);
                taken.insert(form);
                any.push((
                    Occur::Should,
                    Box::new(TermQuery::new(term.clone(), IndexRecordOption::Basic)),
                ));
                bm25.push((
                    Occur::Should,
                    Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs)),
                ));
            }
            if any.is_empty() {
                continue;
            }
            let rarity = (1.0 + chunks / freq as f32).ln();
            let clause = ConstScoreQuery::new(Box::new(BooleanQuery::new(any)), rarity);
            // A pasted text's very common prose words are not searched (as in BM25's).
            let frequent = !word.code && freq as f32 > common;
            if !(frequent && read.long) {
                held.push((Box::new(clause), frequent));
            }
        }
        if held.is_empty() {
            return Ok((Vec::new(), 0));
        }
        // A chunk must hold half of the words. The rarer words find the chunks: a very common
        // prose word's long posting list, scored in full (no score bound prunes a count of
        // words), was most of the search's cost on a big tree; it only adds its weight to
        // chunks the rarer words found, assumed held when counting (all of them common: they
        // find the chunks themselves).
        let required = ((held.len() as f32 * REQUIRED_SHARE).ceil() as usize).max(1);
        let all_frequent = held.iter().all(|(_, frequent)| *frequent);
        let (finding, adding): (Vec<_>, Vec<_>) = held
            .into_iter()
            .partition(|(_, frequent)| !frequent || all_frequent);
        let required = required.saturating_sub(adding.len()).max(1);
        let finding: Vec<(Occur, Box<dyn Query>)> = finding
            .into_iter()
            .map(|(q, _)| (Occur::Should, q))
            .collect();
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = vec![(
            Occur::Must,
            Box::new(BooleanQuery::with_minimum_required_clauses(
                finding, required,
            )),
        )];
        clauses.extend(adding.into_iter().map(|(q, _)| (Occur::Should, q)));
        clauses.push((
            Occur::Should,
            Box::new(BoostQuery::new(
                Box::new(BooleanQuery::new(bm25)),
                BM25_WEIGHT,
            )),
        ));
        let query = BooleanQuery::new(clauses);
        let query = self.filtered(&searcher, Box::new(query), request);
        self.run(&searcher, query, read, request.limit)
    }
}

/// A word and its common English inflections, as the index may spell them: `cached` ->
/// cache, caches, cached, caching; `entries` -> entry. Forms the index lacks cost one term
/// dictionary lookup per segment each.
pub(super) fn forms(word: &str) -> Vec<String> {
    let mut stems = vec![word.to_string()];
    if word.len() > MIN_STEM && word.chars().all(|c| c.is_ascii_lowercase()) {
        let cut = |suffix: &str, add: &str| {
            word.strip_suffix(suffix)
                .filter(|s| s.len() >= MIN_STEM)
                .map(|s| format!("{s}{add}"))
        };
        // `-es` after a hissing sound (`caches`, `boxes`); else the `-s` alone (`notes`).
        let hissing = ["ses", "xes", "zes", "ches", "shes"]
            .iter()
            .any(|s| word.ends_with(s));
        stems.extend(
            [
                cut("ies", "y"),
                cut("es", "").filter(|_| hissing),
                cut("s", "").filter(|_| !word.ends_with("ss") && !word.ends_with("ies")),
                cut("ed", ""),
                cut("ed", "e"),
                cut("ing", ""),
                cut("ing", "e"),
            ]
            .into_iter()
            .flatten(),
        );
    }
    let mut out: Vec<String> = Vec::new();
    for stem in &stems {
        out.push(stem.clone());
        if stem.len() >= MIN_STEM && stem.chars().all(|c| c.is_ascii_lowercase()) {
            let bare = stem.strip_suffix('e').unwrap_or(stem);
            out.extend([
                format!("{stem}s"),
                format!("{stem}es"),
                format!("{bare}ed"),
                format!("{bare}ing"),
            ]);
            if let Some(y) = stem.strip_suffix('y') {
                out.push(format!("{y}ies"));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::super::{ChunkDoc, Fulltext, SearchRequest};
    use super::forms;
    use crate::index::chunks::{Chunk, kind};
    use crate::index::query_reader;

    const DOCSTRING: &str = "def process_request(self, request):\n    \"\"\"Check whether the \
        page is already cached and return the cached\n    version if available.\"\"\"\n    \
        return lookup(request)";
    /// Says `version` six times and names it: what BM25's sum likes.
    const REPEATS: &str = "def get_version(version=None):\n    \"\"\"Return a version.\"\"\"\n    \
        version = get_complete_version(version)\n    return version or main_version(version)";

    fn chunk(id: &str, kind: &str, symbol: &str, body: &str) -> Chunk {
        Chunk {
            id: id.into(),
            ordinal: 0,
            kind: kind.into(),
            symbol: Some(symbol.into()),
            heading_path: Vec::new(),
            start_line: 1,
            end_line: body.lines().count() as u32,
            page: None,
            body: body.into(),
            span: None,
        }
    }

    fn files<'a>() -> Vec<(&'a str, Vec<Chunk>)> {
        vec![
            (
                "middleware/cache.py",
                vec![chunk("cache", kind::CODE, "process_request", DOCSTRING)],
            ),
            (
                "utils/version.py",
                vec![chunk("version", kind::CODE, "get_version", REPEATS)],
            ),
            (
                "utils/functional.py",
                vec![chunk(
                    "property",
                    kind::CODE,
                    "cached_property",
                    "class cached_property:\n    \"\"\"A cached value.\"\"\"",
                )],
            ),
            (
                "pages/views.py",
                vec![
                    chunk(
                        "pages",
                        kind::CODE,
                        "list_pages",
                        "def list_pages(site):\n    return site.caching_pages()",
                    ),
                    chunk(
                        "pages-doc",
                        kind::CODE_COMMENT,
                        "list_pages",
                        "Pages of a site, checked against what is available.",
                    ),
                ],
            ),
        ]
    }

    fn index(files: &[(&str, Vec<Chunk>)]) -> (tempfile::TempDir, Fulltext) {
        let dir = tempfile::tempdir().unwrap();
        let (ft, _) = Fulltext::open(&dir.path().join("index"), true).unwrap();
        for (path, chunks) in files {
            put(&ft, path, chunks);
        }
        ft.commit().unwrap();
        (dir, ft)
    }

    /// A Python file's chunks in place of what the index held for it.
    fn put(ft: &Fulltext, path: &str, chunks: &[Chunk]) {
        let docs: Vec<ChunkDoc> = chunks
            .iter()
            .map(|chunk| ChunkDoc {
                path,
                language: Some("python"),
                chunk,
            })
            .collect();
        ft.replace_file(path, &docs, None).unwrap();
    }

    fn sentence(ft: &Fulltext, text: &str, kinds: &[&str]) -> Vec<(String, f32)> {
        let request = SearchRequest {
            query: text.into(),
            kinds: kinds.iter().map(|k| k.to_string()).collect(),
            limit: 10,
            ..Default::default()
        };
        let (hits, _) = ft.sentence(&query_reader::read(text), &request).unwrap();
        hits.into_iter().map(|h| (h.chunk_id, h.score)).collect()
    }

    fn ids(found: &[(String, f32)]) -> Vec<&str> {
        found.iter().map(|(id, _)| id.as_str()).collect()
    }

    const GOAL: &str = "check whether the page is already cached and return the cached version \
        if available";

    #[test]
    fn the_chunk_saying_the_words_beats_the_one_repeating_one() {
        let (_dir, ft) = index(&files());
        // BM25's sum puts the version helper first...
        let (bm25, _) = ft
            .search(&SearchRequest {
                query: GOAL.into(),
                limit: 10,
                ..Default::default()
            })
            .unwrap();
        assert_eq!(bm25[0].chunk_id, "version", "{bm25:?}");
        // ... the sentence's words are the docstring's.
        let found = sentence(&ft, GOAL, &[]);
        assert_eq!(ids(&found)[0], "cache", "{found:?}");
        // Holding fewer than half of the words (`cached` alone) is no match.
        assert!(!ids(&found).contains(&"property"), "{found:?}");
    }

    #[test]
    fn words_match_in_their_inflections_and_filters_hold() {
        let (_dir, ft) = index(&files());
        // `caches`, `page` and `checks` are the forms of `caching`, `pages` and `checked`.
        let found = sentence(&ft, "checks caches page", &[]);
        // Every word first; then `checked` (rarer) over `caching`; `cached` alone is too few.
        assert_eq!(ids(&found), ["cache", "pages-doc", "pages"], "{found:?}");
        let code = sentence(&ft, "checks caches page", &[kind::CODE]);
        assert_eq!(ids(&code), ["cache", "pages"], "{code:?}");
        assert!(sentence(&ft, "xylophone quartz", &[]).is_empty());
    }

    #[test]
    fn very_common_words_weigh_in_without_finding_chunks_by_themselves() {
        // `return` and `page` in every one of thirty fillers: over a tenth of all chunks.
        let fillers: Vec<(String, Chunk)> = (0..30)
            .map(|i| {
                let body = format!("def filler_{i}(page):\n    return page");
                let filler = chunk(&format!("f{i}"), kind::CODE, "filler", &body);
                (format!("fill/f{i}.py"), filler)
            })
            .collect();
        let mut files = files();
        files.extend(
            fillers
                .iter()
                .map(|(path, c)| (path.as_str(), vec![c.clone()])),
        );
        let (_dir, ft) = index(&files);
        let found = sentence(&ft, GOAL, &[]);
        assert_eq!(ids(&found)[0], "cache", "{found:?}");
        assert!(
            !ids(&found).iter().any(|id| id.starts_with('f')),
            "{found:?}"
        );
        // Only common words: they find the chunks themselves.
        let found = sentence(&ft, "return page", &[]);
        assert!(ids(&found).contains(&"f0"), "{found:?}");
    }

    #[test]
    fn after_edits_it_answers_as_a_fresh_index_of_the_same_files() {
        let (_dir, kept) = index(&files());
        // The cache middleware rewritten, the version helper deleted, in two commits.
        let rewritten = vec![chunk(
            "cache",
            kind::CODE,
            "process_request",
            "def process_request(self, request):\n    \"\"\"Return the cached page.\"\"\"",
        )];
        put(&kept, "middleware/cache.py", &rewritten);
        kept.commit().unwrap();
        kept.delete_file("utils/version.py").unwrap();
        kept.commit().unwrap();
        let mut now = files();
        now.retain(|(path, _)| *path != "utils/version.py");
        now[0].1 = rewritten;
        let (_fresh_dir, fresh) = index(&now);
        for text in [
            GOAL,
            "return the cached page",
            "checks caches page available",
        ] {
            assert_eq!(
                sentence(&kept, text, &[]),
                sentence(&fresh, text, &[]),
                "{text}"
            );
        }
        assert!(!ids(&sentence(&kept, "version helper", &[])).contains(&"version"));
    }

    #[test]
    fn inflections_reach_the_docstring_s_forms() {
        let cached = forms("cached");
        for form in ["cache", "caches", "cached", "caching"] {
            assert!(cached.contains(&form.to_string()), "{form}: {cached:?}");
        }
        assert!(forms("entries").contains(&"entry".to_string()));
        assert!(forms("returns").contains(&"returned".to_string()));
        let caches = forms("caches");
        assert!(caches.contains(&"cache".to_string()) && caches.contains(&"caching".to_string()));
        // No stem shorter than four letters: `string` is no `str`, `notes` no `not`.
        for (word, not) in [("string", "str"), ("notes", "not"), ("modes", "mod")] {
            assert!(
                !forms(word).contains(&not.to_string()),
                "{word}: {:?}",
                forms(word)
            );
        }
        assert!(forms("notes").contains(&"note".to_string()));
        // A short word, or one of a number's shape, is not inflected.
        assert_eq!(forms("ab"), vec!["ab".to_string()]);
        assert!(!forms("class").contains(&"clas".to_string()));
        assert_eq!(forms("sha256"), vec!["sha256".to_string()]);
    }
}
