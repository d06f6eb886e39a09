use super::*;

fn hit(id: &str, path: &str, kind: &str, symbol: Option<&str>, score: f32, body: &str) -> Hit {
    Hit {
        chunk_id: id.into(),
        path: path.into(),
        kind: kind.into(),
        language: Some("python".into()),
        symbol: symbol.map(str::to_string),
        heading_path: Vec::new(),
        start_line: 1,
        end_line: 5,
        score,
        snippet: String::new(),
        snippet_line: 1,
        body: body.into(),
        file_hash: None,
        why: Vec::new(),
        pending: None,
    }
}

#[test]
fn one_item_per_file_first_and_docstrings_fold_into_their_code() {
    let read = query_reader::read("ceiling rounding of decimals");
    let found = vec![
        hit("a1", "a.py", "code", Some("A::x"), 9.0, "ceiling rounding"),
        hit(
            "a2",
            "a.py",
            "code_comment",
            Some("A::x"),
            8.5,
            "ceiling rounding docs",
        ),
        hit("a3", "a.py", "code", Some("A::y"), 8.0, "ceiling"),
        hit("b1", "b.py", "code", Some("B::z"), 5.0, "decimals"),
    ];
    let out = ranked(&read, found, None, 10);
    let ids: Vec<&str> = out.iter().map(|h| h.chunk_id.as_str()).collect();
    assert_eq!(
        ids,
        ["a1", "b1", "a3"],
        "a1's docstring folded; b.py before a.py's second"
    );
    assert!(out.windows(2).all(|w| w[0].score >= w[1].score));
    assert!(out.iter().all(|h| !h.why.is_empty()));
    assert!(
        out[0].why.iter().any(|w| w.contains("ceiling")),
        "{:?}",
        out[0].why
    );
}

#[test]
fn a_name_made_of_the_text_s_words_shows_its_file() {
    // The text never spells `_check_choices`; it is about choices, and says check once.
    let read = query_reader::read(
        "max_length does not fit the longest of the choices\n\
         A field's choices can hold a value longer than max_length; nothing warns until \
         the database refuses the value. The choices are known when the model is \
         defined, so a check could compare the longest of the choices then.",
    );
    let body = "max_length choices longest value";
    let found = vec![
        hit("c", "fields.py", "code", Some("Field::check"), 5.0, body),
        hit(
            "cc",
            "fields.py",
            "code",
            Some("Field::_check_choices"),
            5.0,
            body,
        ),
        hit(
            "ck",
            "fields.py",
            "code",
            Some("Field::_check_kind"),
            5.0,
            body,
        ),
    ];
    let out = ranked(&read, found.clone(), None, 3);
    assert_eq!(out[0].chunk_id, "cc", "{out:?}");
    assert!(
        out[0]
            .why
            .contains(&"name made of the query's words: check, choices".to_string()),
        "{:?}",
        out[0].why
    );
    // A word the text does not use (`kind`) makes no compound of its words.
    assert!(
        !out.iter()
            .any(|h| h.chunk_id == "ck" && h.why.iter().any(|w| w.starts_with("name made of")))
    );
    // A compound counts less than a name the text spells whole: it is weaker evidence.
    let read = query_reader::read(
        "check fails for long choices\n\
         Calling check on the field passes, then saving fails: check should have said so.",
    );
    let out = ranked(&read, found, None, 3);
    assert_eq!(out[0].chunk_id, "c", "{out:?}");
}

#[test]
fn identifiers_split_into_their_words() {
    assert_eq!(identifier_parts("_check_choices"), ["check", "choices"]);
    assert_eq!(identifier_parts("setGroupBy"), ["set", "group", "by"]);
    assert_eq!(
        identifier_parts("KeyTransformIsNull"),
        ["key", "transform", "is", "null"]
    );
    assert_eq!(identifier_parts("__init__"), ["init"]);
    assert_eq!(identifier_parts("HTTPResponse"), ["httpresponse"]);
}

#[test]
fn a_file_is_shown_by_the_definition_its_text_names_most() {
    let read = query_reader::read(
        "FileBasedCache has_key is susceptible to race conditions\n\
         has_key checks the file exists, then _is_expired opens it; has_key races. \
         Between has_key's check and its open, has_key can lose the file.",
    );
    let found = vec![
        hit(
            "e",
            "cache.py",
            "code",
            Some("FileBasedCache::_is_expired"),
            9.0,
            "def _is_expired(self, f): exists file race",
        ),
        hit(
            "o",
            "other.py",
            "code",
            Some("Other"),
            10.0,
            "race conditions",
        ),
    ];
    let mut asked: Vec<Vec<String>> = Vec::new();
    let mut in_files = |files: &[String]| {
        asked.push(files.to_vec());
        let mut k = hit(
            "k",
            "cache.py",
            "code",
            Some("FileBasedCache::has_key"),
            1.0,
            "def has_key(self, key):",
        );
        k.start_line = 40;
        // A docstring chunk, a file outside the first files and a chunk defining no
        // word of the query are not brought.
        let doc = hit(
            "d",
            "cache.py",
            "code_comment",
            Some("FileBasedCache::has_key"),
            1.0,
            "doc",
        );
        let far = hit("f", "far.py", "code", Some("has_key"), 1.0, "x");
        let plain = hit("p", "cache.py", "code", Some("Unrelated"), 1.0, "x");
        vec![doc, far, plain, k]
    };
    let out = rank(
        &read,
        found,
        Vec::new(),
        &HashMap::new(),
        &no_priors(),
        3,
        Lookups {
            in_files: &mut in_files,
            read_text: &mut |_| {},
        },
    );
    let ids: Vec<&str> = out.iter().map(|h| h.chunk_id.as_str()).collect();
    assert_eq!(ids, ["k", "o", "e"], "has_key shows cache.py");
    assert!(
        out[0].why.iter().any(|w| w == "defines has_key"),
        "{:?}",
        out[0].why
    );
    assert_eq!(
        asked,
        [vec!["cache.py".to_string(), "other.py".to_string()]]
    );
    let alone = ranked(&read, out.clone(), None, 3);
    assert_eq!(alone.len(), 3);
}

/// Neither centrality nor learned test roots.
fn no_priors() -> Priors<'static> {
    static ROLES: std::sync::LazyLock<Roles> = std::sync::LazyLock::new(Roles::default);
    Priors {
        centrality: None,
        roles: &ROLES,
    }
}

/// No definitions beyond what the search found.
fn none(_: &[String]) -> Vec<Hit> {
    Vec::new()
}

/// `found` ranked alone: no definitions, no whole-file scores, none looked up.
fn ranked(
    read: &ReadQuery,
    found: Vec<Hit>,
    centrality: Option<&dyn Centrality>,
    limit: usize,
) -> Vec<Hit> {
    rank(
        read,
        found,
        Vec::new(),
        &HashMap::new(),
        &Priors {
            centrality,
            roles: &Roles::default(),
        },
        limit,
        Lookups {
            in_files: &mut none,
            read_text: &mut |_| {},
        },
    )
}

/// a.py with three parts scored `a` (the second named `second`), and six other files
/// with one part scored `others`.
fn one_file_and_six(a: [f32; 3], second: &str, others: f32) -> Vec<Hit> {
    let mut found = vec![
        hit("a1", "a.py", "code", Some("A::x"), a[0], "ceiling rounding"),
        hit("a2", "a.py", "code", Some(second), a[1], "ceiling rounding"),
        hit("a3", "a.py", "code", Some("A::z"), a[2], "ceiling rounding"),
    ];
    for f in ["b", "c", "d", "e", "f", "g"] {
        let path = format!("{f}.py");
        found.push(hit(f, &path, "code", Some("Z"), others, "decimals"));
    }
    found
}

fn ids(out: &[Hit]) -> Vec<&str> {
    out.iter().map(|h| h.chunk_id.as_str()).collect()
}

#[test]
fn the_first_file_shows_its_second_part_before_the_fifth_file() {
    let read = query_reader::read("ceiling rounding of decimals");
    let out = ranked(
        &read,
        one_file_and_six([10.0, 3.0, 1.0], "A::y", 2.0),
        None,
        6,
    );
    assert_eq!(ids(&out), ["a1", "b", "c", "d", "a2", "e"]);
    assert!(out[4].why.iter().any(|w| w == "part 2 of this file"));
    assert!(out.windows(2).all(|w| w[0].score >= w[1].score));
    // No room for both: five files.
    let five = ranked(
        &read,
        one_file_and_six([10.0, 3.0, 1.0], "A::y", 2.0),
        None,
        5,
    );
    assert_eq!(ids(&five), ["a1", "b", "c", "d", "e"]);
    // A distinct symbol comes before a second piece of the same one (a long class's).
    let same = ranked(
        &read,
        one_file_and_six([10.0, 3.0, 1.0], "A::x", 2.0),
        None,
        6,
    );
    assert_eq!(ids(&same), ["a1", "b", "c", "d", "a3", "e"]);
    // A file of one symbol's pieces has no second part to show early.
    let mut one_symbol = one_file_and_six([10.0, 1.0, 1.0], "A::x", 2.0);
    one_symbol.retain(|h| h.chunk_id != "a3");
    let one_symbol = ranked(&read, one_symbol, None, 6);
    assert_eq!(ids(&one_symbol), ["a1", "b", "c", "d", "e", "f"]);
}

#[test]
fn a_file_is_shown_by_the_code_its_text_quotes() {
    let read = query_reader::read(
        "The link to the password form is broken\n\
         The user admin reaches the form by another field than the primary key, and the \
         form does this:\n\
         \tpassword.help_text = password.help_text.format(\"../password/\")\n\
         so the link breaks when the form is reached another way.",
    );
    let found = vec![
        hit(
            "x",
            "forms.py",
            "code",
            Some("ResetForm"),
            9.0,
            "password form link",
        ),
        hit(
            "y",
            "forms.py",
            "code",
            Some("ChangeForm::__init__"),
            7.0,
            "def __init__(self):\n        password.help_text = password.help_text.format(\"../password/\")",
        ),
    ];
    let out = ranked(&read, found, None, 2);
    assert_eq!(ids(&out), ["y", "x"]);
    assert!(
        out[0].why.iter().any(|w| w == "the query quotes its code"),
        "{:?}",
        out[0].why
    );
}

#[test]
fn after_the_first_files_a_dominant_file_shows_more_and_a_close_race_more_files() {
    let read = query_reader::read("ceiling rounding of decimals");
    let out = ranked(
        &read,
        one_file_and_six([10.0, 9.5, 9.0], "A::y", 2.0),
        None,
        7,
    );
    assert_eq!(ids(&out)[6], "a3", "{:?}", ids(&out));
    assert!(out[6].why.iter().any(|w| w == "part 3 of this file"));
    let close = ranked(
        &read,
        one_file_and_six([3.0, 1.0, 0.9], "A::y", 2.8),
        None,
        8,
    );
    let files: HashSet<&str> = close.iter().map(|h| h.path.as_str()).collect();
    assert_eq!(files.len(), 7, "{:?}", ids(&close));
}

#[test]
fn a_file_holding_most_of_a_long_query_beats_one_repeating_a_word() {
    let read = query_reader::read(
        "the migration autodetector renames a field and loses its default value on alter",
    );
    let found = vec![
        hit(
            "x",
            "x.py",
            "code",
            Some("X"),
            10.0,
            "field field field field",
        ),
        hit(
            "y1",
            "y.py",
            "code",
            Some("Y::a"),
            7.0,
            "migration autodetector renames",
        ),
        hit(
            "y2",
            "y.py",
            "code",
            Some("Y::b"),
            2.0,
            "loses default value alter field",
        ),
    ];
    let out = ranked(&read, found, None, 3);
    assert_eq!(out[0].path, "y.py", "{out:?}");
}

#[test]
fn the_whole_file_score_lifts_a_file_and_says_so() {
    let read = query_reader::read("ceiling rounding of decimals");
    let found = vec![
        hit("x", "x.py", "code", Some("X"), 5.0, "ceiling rounding"),
        hit("y", "y.py", "code", Some("Y"), 4.5, "ceiling rounding"),
    ];
    let whole: HashMap<String, f32> = [("y.py".to_string(), 9.0), ("x.py".to_string(), 1.0)]
        .into_iter()
        .collect();
    let out = rank(
        &read,
        found.clone(),
        Vec::new(),
        &whole,
        &no_priors(),
        2,
        Lookups {
            in_files: &mut none,
            read_text: &mut |_| {},
        },
    );
    assert_eq!(out[0].path, "y.py");
    assert!(
        out[0]
            .why
            .iter()
            .any(|w| w == "the whole file matches the text")
    );
    let out = ranked(&read, found, None, 2);
    assert_eq!(out[0].path, "x.py", "without it, the better chunk wins");
}

#[test]
fn definitions_frames_and_roles_decide_between_files() {
    let read = query_reader::read(
        "RidgeClassifierCV rejects store_cv_values\n  File \"/x/site-packages/pkg/linear/ridge.py\", line 3, in fit\n",
    );
    let found = vec![
        hit(
            "t",
            "pkg/tests/test_ridge.py",
            "code",
            Some("test_x"),
            10.0,
            "store_cv_values ridgeclassifiercv",
        ),
        hit(
            "h",
            "docs/whats_new/v1.txt",
            "text",
            None,
            9.0,
            "store_cv_values",
        ),
        hit(
            "r",
            "pkg/linear/ridge.py",
            "code",
            Some("RidgeClassifierCV"),
            4.0,
            "class RidgeClassifierCV",
        ),
    ];
    let defs = vec![hit(
        "r",
        "pkg/linear/ridge.py",
        "code",
        Some("RidgeClassifierCV"),
        1.0,
        "",
    )];
    let out = rank(
        &read,
        found,
        defs,
        &HashMap::new(),
        &no_priors(),
        10,
        Lookups {
            in_files: &mut none,
            read_text: &mut |_| {},
        },
    );
    assert_eq!(out[0].path, "pkg/linear/ridge.py");
    assert!(
        out[0]
            .why
            .contains(&"defines ridgeclassifiercv".to_string()),
        "{:?}",
        out[0].why
    );
    assert!(out[0].why.contains(&"traceback frame".to_string()));
    let test = out.iter().find(|h| h.chunk_id == "t").unwrap();
    assert!(test.why.iter().any(|w| w.starts_with("test file")));
}

/// Percentiles from a fixed table, as the analysis layer's snapshot answers them.
struct Table(HashMap<&'static str, f32>);

impl Centrality for Table {
    fn file(&self, path: &str) -> Option<f32> {
        self.0.get(path).copied()
    }
}

#[test]
fn a_central_file_wins_a_pasted_text_s_close_race_and_says_so() {
    let table = Table([("core.py", 1.0), ("leaf.py", 0.0)].into_iter().collect());
    let found = vec![
        hit("l", "leaf.py", "code", Some("L"), 5.0, "ceiling rounding"),
        hit("c", "core.py", "code", Some("C"), 4.9, "ceiling rounding"),
    ];
    let text = "When I round a value with the ceiling mode the result is off by one for \
                negative numbers and the rounding of decimals in the report is wrong too, \
                which breaks the totals that every page shows";
    let read = query_reader::read(text);
    assert!(read.long);
    let out = ranked(&read, found.clone(), Some(&table), 2);
    assert_eq!(out[0].path, "core.py");
    assert!(
        out[0]
            .why
            .iter()
            .any(|w| w == "central: top 1% of files by imports"),
        "{:?}",
        out[0].why
    );
    let alone = ranked(&read, found.clone(), None, 2);
    assert_eq!(
        alone[0].path, "leaf.py",
        "without the graphs, the better chunk wins"
    );
    // A clear lead is not overturned, and a short query is left to its words.
    let far = vec![
        hit("l", "leaf.py", "code", Some("L"), 5.0, "ceiling rounding"),
        hit("c", "core.py", "code", Some("C"), 3.0, "ceiling rounding"),
    ];
    let out = ranked(&read, far, Some(&table), 2);
    assert_eq!(out[0].path, "leaf.py");
    let short = query_reader::read("ceiling rounding");
    let out = ranked(&short, found, Some(&table), 2);
    assert_eq!(out[0].path, "leaf.py");
}

/// The shown hits' text is read after they are picked; one that cannot be read (its file
/// changed since the pass) gives way to the next pick, so the answer stays full.
#[test]
fn a_picked_chunk_whose_text_cannot_be_read_gives_way_to_the_next() {
    let read = query_reader::read("frobnicate widgets");
    let found: Vec<Hit> = (0..6)
        .map(|i| {
            let mut h = hit(
                &format!("c{i}"),
                &format!("f{i}.py"),
                "code",
                Some("frobnicate"),
                10.0 - i as f32,
                "",
            );
            h.pending = Some(crate::index::source_text::Wanted {
                path: h.path.clone(),
                start_line: 1,
                end_line: 5,
                span: 0,
                hash: i,
            });
            h
        })
        .collect();
    let mut asked = 0;
    let mut read_text = |hits: &mut [Hit]| {
        asked += 1;
        for h in hits.iter_mut().filter(|h| h.path != "f1.py") {
            h.set_body("def frobnicate(widgets): pass".into(), &[]);
        }
    };
    let out = rank(
        &read,
        found,
        Vec::new(),
        &HashMap::new(),
        &no_priors(),
        4,
        Lookups {
            in_files: &mut none,
            read_text: &mut read_text,
        },
    );
    let paths: Vec<&str> = out.iter().map(|h| h.path.as_str()).collect();
    assert_eq!(paths, ["f0.py", "f2.py", "f3.py", "f4.py"]);
    assert!(
        out.iter()
            .all(|h| h.body.contains("frobnicate") && h.pending.is_none())
    );
    assert!(
        out[1].why.iter().any(|w| w.contains("matches widgets")),
        "{:?}",
        out[1].why
    );
    assert_eq!(asked, 2, "read once more after the unreadable pick");
}
