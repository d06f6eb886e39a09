//! Calls resolved through a SCIP index: the index is written with the `scip` crate's own
//! protobuf types (the format every SCIP indexer writes), read back by the host's reader, and
//! the graph must take each site's target from it, fall back to its own resolution where the
//! index no longer describes a file, and answer after edits as a fresh build would.

use super::graph::{Graph, Manifests, ScipView};
use crate::index::code::Language;
use crate::index::facts::FileFacts;
use crate::index::scip::ScipIndex;
use protobuf::Message;
use scip::types::{Document, Index, Occurrence, SymbolRole};
use std::collections::HashMap;
use std::sync::Arc;

const MODELS: &str = "class Session:\n    def send(self):\n        pass\n\nclass Adapter:\n    def send(self):\n        pass\n";
const API: &str = "from models import Session, Adapter\n\ndef go(s, a):\n    s.send()\n    a.send()\n\ndef make():\n    return build().send()\n";

const SESSION_SEND: &str = "scip-python python demo 1.0 models/Session#send().";
const ADAPTER_SEND: &str = "scip-python python demo 1.0 models/Adapter#send().";
const LIBRARY_SEND: &str = "scip-python python lib 2.0 lib/Other#send().";

fn occurrence(line: i32, start: i32, end: i32, symbol: &str, definition: bool) -> Occurrence {
    let mut o = Occurrence::new();
    o.range = vec![line, start, end];
    o.symbol = symbol.to_string();
    if definition {
        o.symbol_roles = SymbolRole::Definition as i32;
    }
    o
}

fn document(path: &str, occurrences: Vec<Occurrence>) -> Document {
    let mut d = Document::new();
    d.relative_path = path.to_string();
    d.language = "python".to_string();
    d.occurrences = occurrences;
    d
}

/// The index scip-python writes for [`MODELS`] and [`API`] (0-based lines): `s.send()` is
/// the session's, `a.send()` the adapter's, `build().send()` a library's.
fn index_bytes() -> Vec<u8> {
    let mut index = Index::new();
    index.documents = vec![
        document(
            "models.py",
            vec![
                occurrence(1, 8, 12, SESSION_SEND, true),
                occurrence(5, 8, 12, ADAPTER_SEND, true),
            ],
        ),
        document(
            "api.py",
            vec![
                occurrence(3, 6, 10, SESSION_SEND, false),
                occurrence(4, 6, 10, ADAPTER_SEND, false),
                occurrence(7, 19, 23, LIBRARY_SEND, false),
            ],
        ),
    ];
    index.write_to_bytes().unwrap()
}

fn facts(path: &str, source: &str) -> Arc<FileFacts> {
    Arc::new(FileFacts::from_source(path, Language::Python, source))
}

/// The view the analysis layer makes: files whose hash is the indexed content's.
fn view(files: &[Arc<FileFacts>], described: &[&str]) -> Arc<ScipView> {
    let index = Arc::new(ScipIndex::parse(&index_bytes(), 1_000).unwrap());
    let fresh: HashMap<String, String> = files
        .iter()
        .filter(|f| described.contains(&f.path.as_str()))
        .map(|f| (f.path.clone(), f.hash.clone()))
        .collect();
    Arc::new(ScipView { index, fresh })
}

/// Every edge as (caller, callee, how), sorted.
fn edges(g: &Graph) -> Vec<(String, String, &'static str)> {
    let mut out: Vec<_> = g
        .calls
        .iter()
        .map(|e| {
            (
                g.qualified(e.from),
                g.qualified(e.to),
                e.confidence.as_str(),
            )
        })
        .collect();
    out.sort();
    out
}

fn edge(from: &str, to: &str, how: &'static str) -> (String, String, &'static str) {
    (from.to_string(), to.to_string(), how)
}

#[test]
fn each_call_site_takes_the_definition_the_index_names() {
    let files = vec![facts("models.py", MODELS), facts("api.py", API)];
    let without = Graph::build(&files);
    // Untyped receivers: both `send`s are only name matches, and so is the library's.
    assert!(
        edges(&without)
            .iter()
            .filter(|e| e.0 == "go" || e.0 == "make")
            .all(|e| e.2 == "name"),
        "{:?}",
        edges(&without)
    );
    let both = view(&files, &["models.py", "api.py"]);
    let with = Graph::update_with(None, &files, Some(both), Manifests::default());
    assert_eq!(
        edges(&with),
        vec![
            edge("go", "Adapter.send", "scip"),
            edge("go", "Session.send", "scip"),
        ],
        "the library's send is no project definition"
    );
}

#[test]
fn a_file_changed_since_the_index_resolves_on_its_own() {
    let files = vec![facts("models.py", MODELS), facts("api.py", API)];
    // The models file was edited after the index: its definitions are found by name and
    // container, the calls into them still come from the index.
    let edited_models = format!("# edited\n{MODELS}");
    let now = vec![facts("models.py", &edited_models), facts("api.py", API)];
    let g = Graph::update_with(
        None,
        &now,
        Some(view(&files, &["models.py", "api.py"])),
        Manifests::default(),
    );
    assert_eq!(
        edges(&g),
        vec![
            edge("go", "Adapter.send", "scip"),
            edge("go", "Session.send", "scip"),
        ]
    );
    // The caller's file was edited: the index's lines no longer hold, so its own resolution.
    let edited_api = API.replace("def go", "\ndef go");
    let now = vec![facts("models.py", MODELS), facts("api.py", &edited_api)];
    let g = Graph::update_with(
        None,
        &now,
        Some(view(&files, &["models.py", "api.py"])),
        Manifests::default(),
    );
    assert!(edges(&g).iter().all(|e| e.2 == "name"), "{:?}", edges(&g));
}

#[test]
fn after_edits_the_graph_answers_as_a_fresh_build_with_the_index() {
    let files = vec![facts("models.py", MODELS), facts("api.py", API)];
    let scip = view(&files, &["models.py", "api.py"]);
    let mut previous = Graph::update_with(None, &files, Some(scip.clone()), Manifests::default());
    let edits = [
        vec![
            facts("models.py", &format!("# a\n{MODELS}")),
            facts("api.py", API),
        ],
        vec![
            facts("models.py", &format!("# a\n{MODELS}")),
            facts("api.py", &API.replace("a.send()", "a.send()\n    s.send()")),
        ],
        vec![facts("models.py", MODELS), facts("api.py", API)],
        vec![facts("api.py", API)],
        vec![facts("models.py", MODELS), facts("api.py", API)],
    ];
    for now in edits {
        let updated = Graph::update(Some(&previous), &now);
        let fresh = Graph::update_with(None, &now, Some(scip.clone()), Manifests::default());
        assert_eq!(edges(&updated), edges(&fresh));
        previous = updated;
    }
    // Back to the indexed content: the index's answer again.
    assert!(edges(&previous).iter().all(|e| e.2 == "scip"));
    // Another index (or none) builds afresh.
    let none = Graph::update_with(Some(&previous), &files, None, Manifests::default());
    assert_eq!(edges(&none), edges(&Graph::build(&files)));
}

#[test]
fn what_is_not_a_scip_index_is_refused_with_why() {
    let err = ScipIndex::parse(b"\xff\xff\xff\xff not protobuf", 0).unwrap_err();
    assert!(format!("{err:#}").contains("not a SCIP index"), "{err:#}");
}

#[test]
fn a_symbol_the_index_knows_only_from_outside_keeps_the_host_s_own_binding() {
    // The indexer was not told the sources start under src/: the project's `helper` is, to
    // it, a symbol of a module it has no document for.
    let mut index = Index::new();
    index.documents = vec![document(
        "main.py",
        vec![occurrence(
            3,
            4,
            10,
            "scip-python python demo 1.0 `src.lib`/helper().",
            false,
        )],
    )];
    let bytes = index.write_to_bytes().unwrap();
    let files = vec![
        facts("lib.py", "def helper():\n    pass\n"),
        facts(
            "main.py",
            "from lib import helper\n\ndef run():\n    helper()\n",
        ),
    ];
    let view = Arc::new(ScipView {
        index: Arc::new(ScipIndex::parse(&bytes, 1_000).unwrap()),
        fresh: files
            .iter()
            .map(|f| (f.path.clone(), f.hash.clone()))
            .collect(),
    });
    let g = Graph::update_with(None, &files, Some(view), Manifests::default());
    assert_eq!(edges(&g), vec![edge("run", "helper", "import")]);
}
