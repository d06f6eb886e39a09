use super::*;
use crate::index::chunks::kind;
use crate::index::source_text::{MemoryFiles, Reads};

fn chunk(id: &str, kind: &str, symbol: Option<&str>, heading: &[&str], body: &str) -> Chunk {
    Chunk {
        id: id.into(),
        ordinal: 0,
        kind: kind.into(),
        symbol: symbol.map(str::to_string),
        heading_path: heading.iter().map(|h| h.to_string()).collect(),
        start_line: 10,
        end_line: 10 + body.lines().count() as u32,
        page: None,
        body: body.into(),
        span: None,
    }
}

fn fixture() -> (tempfile::TempDir, Fulltext) {
    let dir = tempfile::tempdir().unwrap();
    let (ft, rebuilt) = Fulltext::open(&dir.path().join("index"), true).unwrap();
    assert!(rebuilt, "a new index counts as rebuilt");
    let files: Vec<(&str, Option<&str>, Vec<Chunk>)> = vec![
        (
            "src/store/query.rs",
            Some("rust"),
            vec![
                chunk(
                    "a",
                    kind::CODE,
                    Some("QueryBuilder::build"),
                    &[],
                    "fn build(&self) -> Query {\n    let fooBar = parse_input(x);\n    fooBar\n}",
                ),
                chunk(
                    "b",
                    kind::CODE_COMMENT,
                    Some("QueryBuilder::build"),
                    &["QueryBuilder::build"],
                    "Builds the query from parsed input.",
                ),
            ],
        ),
        (
            "src/util.py",
            Some("python"),
            vec![chunk(
                "c",
                kind::CODE,
                Some("foo_bar"),
                &[],
                "def foo_bar(x):\n    return x",
            )],
        ),
        (
            "docs/guide.md",
            None,
            vec![chunk(
                "d",
                "markdown",
                None,
                &["Guide", "Install"],
                "Install\nRun the installer, then parse the input files.",
            )],
        ),
        (
            "notes.txt",
            None,
            vec![chunk(
                "e",
                kind::TEXT,
                None,
                &[],
                "a note that mentions build once",
            )],
        ),
    ];
    for (path, language, chunks) in &files {
        let docs: Vec<ChunkDoc> = chunks
            .iter()
            .map(|chunk| ChunkDoc {
                path,
                language: *language,
                chunk,
            })
            .collect();
        // Code files get their whole-file document, as the indexer gives them.
        let whole: String = chunks
            .iter()
            .map(|c| c.body.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        let whole = language.map(|l| WholeFile {
            text: whole.as_str(),
            language: Some(l),
            calls: Vec::new(),
        });
        ft.replace_file(path, &docs, whole).unwrap();
    }
    ft.commit().unwrap();
    (dir, ft)
}

fn search(ft: &Fulltext, query: &str) -> Vec<String> {
    let (hits, _) = ft
        .search(&SearchRequest {
            query: query.into(),
            limit: 10,
            ..Default::default()
        })
        .unwrap();
    hits.into_iter().map(|h| h.chunk_id).collect()
}

#[test]
fn identifiers_match_by_parts_and_whole() {
    let (_dir, ft) = fixture();
    // `foo` finds fooBar (camel) and foo_bar (snake); the exact identifier ranks first.
    let foo = search(&ft, "foo");
    assert!(
        foo.contains(&"a".to_string()) && foo.contains(&"c".to_string()),
        "{foo:?}"
    );
    assert_eq!(search(&ft, "foo_bar")[0], "c");
    assert_eq!(search(&ft, "fooBar")[0], "a");
    assert_eq!(
        search(&ft, "FooBar").len(),
        2,
        "case and style do not matter"
    );
}

#[test]
fn symbol_names_outrank_body_mentions() {
    let (_dir, ft) = fixture();
    let build = search(&ft, "build");
    assert_eq!(build.last().map(String::as_str), Some("e"), "{build:?}");
    assert!(build[0] == "a" || build[0] == "b", "{build:?}");
}

#[test]
fn quoted_phrases_score_and_plus_quoted_phrases_filter() {
    let (_dir, ft) = fixture();
    // Quoted: the verbatim match first, the rest still found (a pasted message the code does
    // not hold word for word must not empty the answer).
    let quoted = search(&ft, "\"parse the input\"");
    assert_eq!(quoted[0], "d");
    assert!(quoted.len() > 1, "{quoted:?}");
    assert_eq!(search(&ft, "\"input the parse\"").len(), quoted.len());
    // +"...": must match, in order.
    assert_eq!(search(&ft, "+\"parse the input\""), ["d"]);
    assert!(search(&ft, "+\"input the parse\"").is_empty());
    // A phrase across an identifier's parts: parse_input.
    assert_eq!(search(&ft, "+\"parse input\""), ["a"]);
}

#[test]
fn filters_and_snippets() {
    let (_dir, ft) = fixture();
    let request = |kinds: &[&str], languages: &[&str], prefix: Option<&str>| SearchRequest {
        query: "parse input build".into(),
        kinds: kinds.iter().map(|s| s.to_string()).collect(),
        exclude_kinds: Vec::new(),
        languages: languages.iter().map(|s| s.to_string()).collect(),
        path_prefix: prefix.map(str::to_string),
        files: Vec::new(),
        limit: 10,
        centrality: None,
    };
    let ids = |r: SearchRequest| -> Vec<String> {
        ft.search(&r)
            .unwrap()
            .0
            .into_iter()
            .map(|h| h.chunk_id)
            .collect()
    };
    assert_eq!(ids(request(&["markdown"], &[], None)), ["d"]);
    assert_eq!(ids(request(&[], &["rust"], None)).len(), 2);
    assert_eq!(ids(request(&[], &[], Some("docs"))), ["d"]);
    assert_eq!(ids(request(&[], &[], Some("docs/guide.md"))), ["d"]);
    assert!(
        ids(request(&[], &[], Some("doc"))).is_empty(),
        "prefixes are whole directories"
    );
    let mut not_code = request(&[], &[], None);
    not_code.exclude_kinds = vec!["code".into(), "code_comment".into()];
    let mut documents = ids(not_code);
    documents.sort();
    assert_eq!(documents, ["d", "e"]);
    let (hits, total) = ft.search(&request(&[], &["rust"], None)).unwrap();
    assert_eq!(total, 2);
    let code = hits.iter().find(|h| h.chunk_id == "a").unwrap();
    assert_eq!(code.snippet, "let fooBar = parse_input(x);");
    assert_eq!(code.snippet_line, 11);
    assert_eq!(code.symbol.as_deref(), Some("QueryBuilder::build"));
    assert_eq!(code.path, "src/store/query.rs");
}

#[test]
fn replacing_and_deleting_a_file() {
    let (dir, ft) = fixture();
    let replacement = chunk("z", kind::TEXT, None, &[], "brand new words");
    ft.replace_file(
        "notes.txt",
        &[ChunkDoc {
            path: "notes.txt",
            language: None,
            chunk: &replacement,
        }],
        None,
    )
    .unwrap();
    ft.delete_file("src/util.py").unwrap();
    ft.commit().unwrap();
    assert_eq!(search(&ft, "brand"), ["z"]);
    assert!(search(&ft, "mentions").is_empty());
    assert!(search(&ft, "foo_bar").iter().all(|id| id != "c"));
    drop(ft);
    let (again, rebuilt) = Fulltext::open(&dir.path().join("index"), true).unwrap();
    assert!(!rebuilt);
    assert_eq!(again.num_chunks(), 4);
}

#[test]
fn a_damaged_index_is_rebuilt_and_a_missing_one_is_an_error_read_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("index");
    assert!(Fulltext::open(&path, false).is_err());
    // A new index's format is recorded at its first commit: until then it is made again.
    drop(Fulltext::open(&path, true).unwrap());
    let (ft, rebuilt) = Fulltext::open(&path, true).unwrap();
    assert!(rebuilt, "never committed: made again");
    ft.commit().unwrap();
    drop(ft);
    let (ft, rebuilt) = Fulltext::open(&path, true).unwrap();
    assert!(!rebuilt, "committed once: kept");
    drop(ft);
    std::fs::write(path.join("meta.json"), b"{ not json").unwrap();
    let (ft, rebuilt) = Fulltext::open(&path, true).unwrap();
    assert!(rebuilt);
    assert_eq!(ft.num_chunks(), 0);
}

#[test]
fn whole_files_rank_by_their_words_and_are_never_chunks() {
    let (_dir, ft) = fixture();
    let files = |query: &str, languages: &[&str]| -> Vec<String> {
        let request = SearchRequest {
            languages: languages.iter().map(|l| l.to_string()).collect(),
            kinds: vec![kind::CODE.to_string()],
            ..Default::default()
        };
        ft.top_files(&query_reader::read(query), &request, 10)
            .unwrap()
            .into_iter()
            .map(|(path, _)| path)
            .collect()
    };
    // The Rust file holds both words (across its code and its docstring); the guide holds
    // `input` too but is not code, so it has no whole-file document.
    assert_eq!(
        files("parsed input", &[]),
        ["src/store/query.rs"],
        "only code files holding a word"
    );
    assert_eq!(files("foo bar", &[]), ["src/util.py", "src/store/query.rs"]);
    assert_eq!(files("foo bar", &["python"]), ["src/util.py"]);
    // Whole-file documents are not chunks: not searched, listed or counted as such.
    assert!(search(&ft, "foo").iter().all(|id| !id.is_empty()));
    assert_eq!(ft.file_chunks("src/util.py").unwrap().len(), 1);
    assert_eq!(ft.num_chunks(), 5);
    // A search can be held to named files.
    let within = ft
        .search(&SearchRequest {
            query: "foo".into(),
            files: vec!["src/util.py".into(), "docs/guide.md".into()],
            limit: 10,
            ..Default::default()
        })
        .unwrap()
        .0;
    assert_eq!(
        within
            .iter()
            .map(|h| h.chunk_id.as_str())
            .collect::<Vec<_>>(),
        ["c"]
    );
}

/// A full pass deletes everything and adds every file again; the pass after it must delete
/// only what it replaces (tantivy's delete_all_documents wound the operation stamps back, and
/// the next pass's deletes took unrelated files with them).
#[test]
fn deletes_after_a_full_pass_take_only_their_own_documents() {
    let dir = tempfile::tempdir().unwrap();
    let (ft, _) = Fulltext::open(&dir.path().join("index"), true).unwrap();
    let put = |path: &str, body: &str| {
        let c = chunk(&format!("{path}-1"), kind::CODE, None, &[], body);
        let docs = vec![ChunkDoc {
            path,
            language: Some("python"),
            chunk: &c,
        }];
        let whole = WholeFile {
            text: body,
            language: Some("python"),
            calls: Vec::new(),
        };
        ft.replace_file(path, &docs, Some(whole)).unwrap();
    };
    let count = |q: &str| {
        ft.search(&SearchRequest {
            query: q.into(),
            limit: 10,
            ..Default::default()
        })
        .unwrap()
        .1
    };
    for p in ["a", "b", "c", "d"] {
        put(p, &format!("word{p} common"));
    }
    ft.commit().unwrap();
    ft.delete_file("d").unwrap();
    ft.commit().unwrap();
    ft.delete_all().unwrap();
    for p in ["a", "b", "c"] {
        put(p, &format!("word{p} common"));
    }
    ft.commit().unwrap();
    assert_eq!(count("wordc"), 1, "after the full pass");
    put("a", "other text");
    ft.delete_file("b").unwrap();
    ft.commit().unwrap();
    assert_eq!(count("wordc"), 1, "after the next pass");
}

#[test]
fn a_kind_filter_admits_what_it_says_whichever_way_it_is_written() {
    let (_dir, ft) = fixture();
    let request = |kinds: &[&str], exclude: &[&str]| SearchRequest {
        query: "parse input build foo bar".into(),
        kinds: kinds.iter().map(|s| s.to_string()).collect(),
        exclude_kinds: exclude.iter().map(|s| s.to_string()).collect(),
        languages: Vec::new(),
        path_prefix: None,
        files: Vec::new(),
        limit: 50,
        centrality: None,
    };
    let found = |r: SearchRequest| -> Vec<(String, String)> {
        let mut v: Vec<_> = ft
            .search(&r)
            .unwrap()
            .0
            .into_iter()
            .map(|h| (h.chunk_id, h.kind))
            .collect();
        v.sort();
        v
    };
    let everything = found(request(&[], &[]));
    assert!(everything.len() >= 4, "{everything:?}");
    let searcher = ft.reader.searcher();
    let mut ways = std::collections::HashSet::new();
    for (kinds, exclude) in [
        (&["code"][..], &[][..]),
        (&["markdown"], &[]),
        (&["code", "code_comment"], &[]),
        (&["code", "markdown"], &["markdown"]),
        (&[], &["code"]),
        (&[], &["code", "code_comment"]),
        (&[], &["markdown", "text"]),
        (&["no such kind"], &[]),
        (&[], &["no such kind"]),
    ] {
        let admitted = |k: &str| (kinds.is_empty() || kinds.contains(&k)) && !exclude.contains(&k);
        let want: Vec<_> = everything
            .iter()
            .filter(|(_, k)| admitted(k))
            .cloned()
            .collect();
        assert_eq!(
            found(request(kinds, exclude)),
            want,
            "{kinds:?} less {exclude:?}"
        );
        let own = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        ways.insert(kind_filter(&searcher, ft.fields.kind, &own(kinds), &own(exclude)).0);
    }
    // Both ways of writing the filter were taken.
    assert_eq!(ways.len(), 2);
}

/// A chunk that is its file's own lines is not stored: a search reads it back from the file.
/// Once the file changed under it (before the next pass), it is not shown with lines that
/// are not what was indexed; a stored chunk (a parser's text) is shown as stored.
#[test]
fn a_chunk_of_its_files_own_lines_is_read_back_and_never_shown_stale() {
    let dir = tempfile::tempdir().unwrap();
    let files = MemoryFiles::default();
    let (ft, _) = Fulltext::open(&dir.path().join("index"), true).unwrap();
    let text = "import os\n\ndef frobnicate(x):\n    return x\n";
    files.put("src/a.py", text);
    let mut code = chunk(
        "f",
        kind::CODE,
        Some("frobnicate"),
        &[],
        "def frobnicate(x):\n    return x",
    );
    (code.start_line, code.end_line) = (3, 4);
    crate::index::source_text::mark_verbatim(text, std::slice::from_mut(&mut code));
    assert!(code.span.is_some());
    let parsed = chunk("p", "pdf", None, &["Frobnicate"], "frobnicate the widgets");
    for (path, c) in [("src/a.py", &code), ("doc.pdf", &parsed)] {
        let docs = [ChunkDoc {
            path,
            language: None,
            chunk: c,
        }];
        ft.replace_file(path, &docs, None).unwrap();
    }
    ft.commit().unwrap();
    // The index keeps the parser's text and only a hash of the code.
    let searcher = ft.reader.searcher();
    let stored: Vec<TantivyDocument> = searcher
        .search(&tantivy::query::AllQuery, &DocSetCollector)
        .unwrap()
        .into_iter()
        .map(|a| searcher.doc(a).unwrap())
        .collect();
    let kept = |d: &TantivyDocument| d.get_first(ft.fields.stored_body).is_some();
    assert_eq!(stored.iter().filter(|d| kept(d)).count(), 1);
    let search = || {
        let mut hits = ft
            .search(&SearchRequest {
                query: "frobnicate".into(),
                limit: 10,
                ..Default::default()
            })
            .unwrap()
            .0;
        // The code comes without its text until it is read.
        let code = hits.iter().find(|h| h.chunk_id == "f").unwrap();
        assert!(code.pending.is_some() && code.body.is_empty());
        Reads::new(&files).fill(&mut hits, &needles("frobnicate"));
        hits.retain(|h| h.pending.is_none());
        hits.sort_by(|a, b| a.chunk_id.cmp(&b.chunk_id));
        hits.into_iter()
            .map(|h| (h.chunk_id, h.body, h.snippet_line))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        search(),
        [
            ("f".into(), code.body.clone(), 3),
            ("p".into(), parsed.body.clone(), 10)
        ]
    );
    let read_file = |path| {
        let mut hits = ft.file_chunks(path).unwrap();
        Reads::new(&files).fill(&mut hits, &[]);
        hits.retain(|h| h.pending.is_none());
        hits
    };
    assert_eq!(read_file("src/a.py")[0].body, code.body);
    // A longer line above: its bytes moved, its lines did not.
    files.put("src/a.py", &text.replace("import os", "import os, sys"));
    assert_eq!(search().len(), 2);
    // A line added above: the indexed lines moved, so the chunk waits for the next pass.
    files.put("src/a.py", &format!("import sys\n{text}"));
    assert_eq!(search(), [("p".into(), parsed.body.clone(), 10)]);
    assert!(read_file("src/a.py").is_empty());
    // An edit elsewhere in the file leaves it as indexed.
    files.put("src/a.py", &format!("{text}print(1)\n"));
    assert_eq!(search().len(), 2);
}

/// The index keeps a chunk's id only where its path, kind, symbol and ordinal do not make it
/// again: every chunk comes back with the id chunking gave it.
#[test]
fn chunk_ids_come_back_as_chunking_made_them_kept_or_made_again() {
    use crate::index::code::{Language, extract};
    let dir = tempfile::tempdir().unwrap();
    let (ft, _) = Fulltext::open(&dir.path().join("index"), true).unwrap();
    let src = "import os\n\nclass Frob:\n    \"\"\"Frobs.\"\"\"\n    def frob(self):\n        return 1\n\n    def frob(self, x):\n        return x\n\nprint(Frob())\n";
    let mut made =
        crate::index::chunks::code_chunks("m.py", src, &extract(Language::Python, src).symbols);
    made.push(chunk(
        "section-kept",
        "markdown",
        None,
        &["Frob"],
        "frob notes",
    ));
    let docs: Vec<ChunkDoc> = made
        .iter()
        .map(|chunk| ChunkDoc {
            path: "m.py",
            language: Some("python"),
            chunk,
        })
        .collect();
    ft.replace_file("m.py", &docs, None).unwrap();
    ft.commit().unwrap();
    let searcher = ft.reader.searcher();
    let stored_ids = searcher
        .search(&tantivy::query::AllQuery, &DocSetCollector)
        .unwrap()
        .into_iter()
        .filter(|a| {
            let doc: TantivyDocument = searcher.doc(*a).unwrap();
            doc.get_first(ft.fields.chunk_id).is_some()
        })
        .count();
    assert_eq!(stored_ids, 1, "only the one its fields cannot make");
    let mut back: Vec<String> = ft
        .file_chunks("m.py")
        .unwrap()
        .into_iter()
        .map(|h| h.chunk_id)
        .collect();
    let mut want: Vec<String> = made.iter().map(|c| c.id.clone()).collect();
    back.sort();
    want.sort();
    assert_eq!(back, want);
    assert!(
        made.iter()
            .filter(|c| c.symbol.as_deref() == Some("Frob::frob"))
            .count()
            >= 2
    );
}

#[test]
fn the_files_calling_a_name_are_those_whose_calls_name_it_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let (ft, _) = Fulltext::open(&dir.path().join("index"), true).unwrap();
    let long = "x".repeat(MAX_CALL_NAME + 1);
    let files: [(&str, Vec<&str>); 4] = [
        ("b.rs", vec!["new", "parse", "new"]),
        ("a.rs", vec!["New", "$", "operator=="]),
        ("c.py", vec!["new", long.as_str()]),
        // Says `new` in its text and calls nothing.
        ("d.py", vec![]),
    ];
    for (path, calls) in &files {
        let whole = WholeFile {
            text: "new parse New",
            language: Some("rust"),
            calls: calls.clone(),
        };
        ft.replace_file(path, &[], Some(whole)).unwrap();
    }
    ft.commit().unwrap();
    let calling = |name: &str| ft.files_calling(name).unwrap();
    assert_eq!(calling("new"), Some(vec!["b.rs".into(), "c.py".into()]));
    assert_eq!(calling("New"), Some(vec!["a.rs".into()]));
    assert_eq!(calling("$"), Some(vec!["a.rs".into()]));
    assert_eq!(calling("operator=="), Some(vec!["a.rs".into()]));
    assert_eq!(calling("nothing"), Some(vec![]));
    assert_eq!(
        calling(&long),
        None,
        "too long to be indexed: every call is looked at"
    );
    // Replaced and deleted files call what they call now.
    let whole = WholeFile {
        text: "",
        language: Some("rust"),
        calls: vec!["parse"],
    };
    ft.replace_file("b.rs", &[], Some(whole)).unwrap();
    ft.delete_file("c.py").unwrap();
    ft.commit().unwrap();
    assert_eq!(calling("new"), Some(vec![]));
    assert_eq!(calling("parse"), Some(vec!["b.rs".into()]));
}
