use super::*;

fn keys(q: &ReadQuery) -> Vec<(String, f32, bool)> {
    q.words
        .iter()
        .map(|w| (w.key().to_string(), w.weight, w.code))
        .collect()
}

#[test]
fn each_word_counts_once_and_code_outweighs_prose() {
    let q = read("the ceiling of 4 4 4 4 is wrong for `floor_div` and floor_div again");
    let k = keys(&q);
    assert_eq!(k.iter().filter(|(w, ..)| w == "4").count(), 1);
    let weight = |name: &str| k.iter().find(|(w, ..)| w == name).map(|x| x.1);
    assert_eq!(weight("4"), Some(WEAK_WEIGHT));
    assert!(weight("floor_div") > weight("ceiling"));
    assert_eq!(weight("the"), None, "stop words are dropped");
    assert_eq!(k[0].0, "floor_div", "heaviest first");
}

#[test]
fn prominence_counts_whole_mentions_and_favours_the_title_and_frames() {
    let text = "FileBasedCache has_key is racy\n\
        has_key calls _is_expired, and has_key again; get_latest_lastmod and lastmod.\n\
        File \"django/contrib/sitemaps/__init__.py\", line 170, in get_latest_lastmod\n";
    let q = read(text);
    let p = |k: &str| q.prominence_in(k, "django/contrib/sitemaps/__init__.py");
    assert!(
        p("has_key") > p("_is_expired"),
        "in the title, mentioned 3 times"
    );
    assert!(
        (p("_is_expired") - 1.0).abs() < 1e-6,
        "once, outside the title"
    );
    assert!(p("get_latest_lastmod") > p("lastmod"), "a frame's function");
    assert!(
        p("get_latest_lastmod") > q.prominence_in("get_latest_lastmod", "app/sitemaps.py"),
        "a frame speaks for its own file's definition"
    );
    assert!(
        (p("lastmod") - 1.0).abs() < 1e-6,
        "a part of a longer name is not a mention"
    );
    assert_eq!(p("unknown"), 1.0);
    let one_line = read("has_key has_key");
    assert!(
        one_line.prominence_in("has_key", "a.py") < TITLE_PROMINENCE,
        "a one-line query has no title"
    );
}

#[test]
fn frames_weigh_their_own_files_definitions_and_the_innermost_most() {
    let text = "Crash on saving\nTraceback (most recent call last):\n\
        File \"/env/site-packages/pkg/figure.py\", line 10, in draw\n\
        File \"/env/site-packages/pkg/backend.py\", line 20, in print_figure\n\
        File \"/env/site-packages/pkg/backend.py\", line 30, in draw_text\n";
    let q = read(text);
    let backend = "pkg/backend.py";
    assert_eq!(q.prominence_in("draw_text", backend), INNERMOST_PROMINENCE);
    assert_eq!(q.prominence_in("print_figure", backend), FRAME_PROMINENCE);
    assert_eq!(
        q.prominence_in("draw", backend),
        1.0,
        "draw ran in figure.py, which says nothing of a draw in backend.py"
    );
    assert_eq!(
        q.prominence_in("draw", "pkg/figure.py"),
        INNERMOST_PROMINENCE
    );
    assert_eq!(
        q.prominence_in("draw_text", "other/backend.py"),
        1.0,
        "one shared component (the file name) is not the frame's file"
    );
}

#[test]
fn quoted_lines_are_compared_whitespace_aside() {
    let q = read(
        "The link to the password form is broken when the admin reaches the user by another \
         field than its primary key. The form does this:\n\
         \tpassword.help_text = password.help_text.format(x)\nreturn self\n",
    );
    assert!(
        q.quotes("    def f(self):\n        password.help_text  = password.help_text.format(x)\n")
    );
    assert!(
        !q.quotes("    return self\n"),
        "short lines are quoted by chance"
    );
    assert!(!q.quotes("password.help_text = other(x)\n"));
    let line = "password.help_text = password.help_text.format(x)";
    assert!(
        !read(line).quotes(line),
        "a short query's one line is matched by its words already"
    );
}

#[test]
fn quotes_are_phrases_not_filters_and_plus_requires() {
    let q = read(r#"error "cannot resolve keyword" and +"must have" +needle"#);
    assert_eq!(q.phrases.len(), 1);
    assert_eq!(
        q.required.len(),
        1,
        "+word is not an operator (diff lines start so)"
    );
    let long = format!(
        "{} +\"must have\"",
        "many words in a pasted text ".repeat(10)
    );
    assert!(
        read(&long).required.is_empty(),
        "a pasted text requires nothing"
    );
    assert!(
        keys(&q).iter().any(|(w, ..)| w == "keyword"),
        "quoted words still count"
    );
    // An odd number of quotes is not an error either.
    let odd = read(r#"it says "unterminated and more"#);
    assert!(odd.required.is_empty());
    assert!(keys(&odd).iter().any(|(w, ..)| w == "unterminated"));
}

#[test]
fn tracebacks_paths_and_dotted_names_become_mentions() {
    let text = "Traceback (most recent call last):\n  File \"/usr/lib/python3/site-packages/django/db/models/query.py\", line 42, in get_or_create\n    obj = self.get()\nSee sklearn.linear_model.RidgeClassifierCV and lib/matplotlib/axes/_base.py:120.";
    let q = read(text);
    let frame = q.mentions.iter().find(|m| m.frame).unwrap();
    assert_eq!(frame.parts, ["django", "db", "models", "query.py"]);
    assert!(
        q.mentions
            .iter()
            .any(|m| m.parts == ["lib", "matplotlib", "axes", "_base.py"])
    );
    assert!(
        keys(&q)
            .iter()
            .any(|(w, _, code)| w == "get_or_create" && *code)
    );
    let dotted = q.mentions.iter().find(|m| m.dotted).unwrap();
    assert_eq!(mention_match(dotted, "sklearn/linear_model/__init__.py"), 2);
    // IPython 8 and 7 frames.
    for text in [
        "File ~/env/site-packages/matplotlib/axes/_axes.py:2182, in Axes._convert_dx(dx, x0)",
        "~/env/site-packages/matplotlib/axes/_axes.py in _convert_dx(dx, x0, xconv)",
    ] {
        let q = read(text);
        let frame = q.mentions.iter().find(|m| m.frame).expect(text);
        assert_eq!(frame.parts.last().map(String::as_str), Some("_axes.py"));
        let path = "lib/matplotlib/axes/_axes.py";
        assert!(
            q.prominence_in("_convert_dx", path) >= TITLE_PROMINENCE,
            "{text}"
        );
    }
    assert_eq!(mention_match(frame, "django/db/models/query.py"), 4);
    assert_eq!(mention_match(frame, "django/db/query.py"), 1);
    assert_eq!(mention_match(frame, "other/thing.py"), 0);
}

#[test]
fn tests_are_the_subject_only_when_named() {
    assert!(!read(&"the form fails to validate the value when saved ".repeat(5)).about_tests);
    assert!(read("test_ordering fails on sqlite").about_tests);
    assert!(read("flaky tests").about_tests);
    assert!(read("see tests/forms/test_fields.py").about_tests);
}
