//! JUnit XML reports, the format most runners can write (pytest `--junitxml`, jest-junit,
//! Maven surefire, Gradle, go-junit-report, cargo2junit): counts and failing tests with their
//! file and line, more reliable than reading a console. The operator names the reports in
//! `[test] junit_xml` (files, or directories whose `*.xml` are read); only reports the run
//! wrote (modified since it started) count, so a stale one never speaks for a new run.

use super::Summary;
use crate::workspace::{EntryKind, ReadOptions, Workspace};
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

/// Largest report read.
const MAX_REPORT_BYTES: u64 = 16 << 20;
/// Reports read from one directory at most.
const MAX_REPORTS: usize = 500;

/// The summary of the reports under `paths` written since `since_ms`, or None when there is
/// none (the console's summary stands then). Use [`with_console_places`] to keep the places
/// the console named for failures the reports do not place.
pub fn summarize(ws: &Workspace, paths: &[String], since_ms: u64) -> Option<Summary> {
    let mut files = Vec::new();
    for path in paths {
        let Ok(entry) = ws.stat(path) else { continue };
        match entry.kind {
            EntryKind::Directory => {
                let Ok(entries) = ws.list(path) else { continue };
                files.extend(
                    entries
                        .into_iter()
                        .filter(|e| e.kind == EntryKind::File && e.path.ends_with(".xml"))
                        .filter(|e| e.modified_ms >= since_ms)
                        .take(MAX_REPORTS),
                );
            }
            _ => files.push(entry),
        }
    }
    let mut total: Option<Summary> = None;
    for file in files.iter().filter(|f| f.modified_ms >= since_ms) {
        let options = ReadOptions {
            max_bytes: MAX_REPORT_BYTES,
            allow_sensitive: false,
            allow_binary: false,
            allow_truncate: false,
        };
        let Ok(content) = ws.read(&file.path, options) else {
            continue;
        };
        match parse(&content.bytes) {
            Ok(summary) => total.get_or_insert_with(Summary::default).add(summary),
            Err(err) => tracing::warn!("the JUnit report {} does not parse: {err}", file.path),
        }
    }
    total
}

/// `reports` with each failure the reports did not place (pytest's default `xunit2` reports
/// carry no file or line) given the place the console's summary found for the same test.
pub fn with_console_places(mut reports: Summary, console: &Summary) -> Summary {
    for failure in &mut reports.failures {
        if failure.ends_with(')') {
            continue;
        }
        let method = failure.rsplit('.').next().unwrap_or(failure).to_string();
        let placed = console.failures.iter().find_map(|c| {
            let (name, place) = c.rsplit_once(" (")?;
            let tail = name.rsplit(['.', ':', ' ']).next()?;
            (tail == method).then(|| place.trim_end_matches(')').to_string())
        });
        if let Some(place) = placed {
            *failure = format!("{failure} ({place})");
        }
    }
    reports
}

/// One report's counts and failing tests.
pub fn parse(xml: &[u8]) -> Result<Summary, quick_xml::Error> {
    let mut reader = Reader::from_reader(xml);
    let mut summary = Summary::default();
    let mut case: Option<Case> = None;
    // pytest numbers a test's line from 0 in its reports.
    let mut zero_based = false;
    let mut buf = Vec::new();
    loop {
        let event = reader.read_event_into(&mut buf)?;
        let empty = matches!(event, Event::Empty(_));
        match event {
            Event::Start(e) | Event::Empty(e) => match e.local_name().as_ref() {
                "testsuite" | "testsuites" => {
                    zero_based |= attr(&e, "name").is_some_and(|n| n.starts_with("pytest"));
                }
                "testcase" => {
                    let found = Case::from(&e, zero_based);
                    if empty {
                        found.finish(&mut summary);
                    } else {
                        case = Some(found);
                    }
                }
                "failure" | "error" => {
                    if let Some(case) = &mut case {
                        case.outcome = Outcome::Failed;
                    }
                }
                "skipped" => {
                    if let Some(case) = case.as_mut().filter(|c| c.outcome == Outcome::Passed) {
                        case.outcome = Outcome::Skipped;
                    }
                }
                _ => {}
            },
            Event::End(e) if e.local_name().as_ref() == "testcase" => {
                if let Some(case) = case.take() {
                    case.finish(&mut summary);
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    Ok(summary)
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Outcome {
    Passed,
    Failed,
    Skipped,
}

/// A `<testcase>` being read.
struct Case {
    name: String,
    place: Option<String>,
    outcome: Outcome,
}

impl Case {
    fn from(e: &BytesStart, zero_based: bool) -> Self {
        let name = attr(e, "name").unwrap_or_default();
        let name = match attr(e, "classname").filter(|c| !c.is_empty()) {
            Some(class) => format!("{class}.{name}"),
            None => name,
        };
        let line = attr(e, "line")
            .and_then(|l| l.parse::<u32>().ok())
            .map(|l| l.saturating_add(u32::from(zero_based)));
        let place = attr(e, "file").map(|file| match line {
            Some(line) => format!("{file}:{line}"),
            None => file,
        });
        Case {
            name,
            place,
            outcome: Outcome::Passed,
        }
    }

    fn finish(self, summary: &mut Summary) {
        match self.outcome {
            Outcome::Passed => summary.passed += 1,
            Outcome::Skipped => summary.ignored += 1,
            Outcome::Failed => {
                summary.failed += 1;
                let name = match self.place {
                    Some(place) => format!("{} ({place})", self.name),
                    None => self.name,
                };
                summary.fail(&name);
            }
        }
    }
}

/// An attribute's value, unescaped.
fn attr(e: &BytesStart, name: &str) -> Option<String> {
    e.try_get_attribute(name).ok().flatten().and_then(|a| {
        a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
            .ok()
            .map(|v| v.into_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pytest_reports_count_and_place_failures() {
        let xml = br#"<?xml version="1.0" encoding="utf-8"?>
<testsuites name="pytest tests"><testsuite name="pytest" errors="0" failures="1" skipped="1" tests="4">
<testcase classname="tests.test_text.TestSlug" name="test_ok" file="tests/test_text.py" line="11" time="0.001" />
<testcase classname="tests.test_text.TestSlug" name="test_bad" file="tests/test_text.py" line="14" time="0.001"><failure message="assert 1 == 2">tests/test_text.py:16: AssertionError</failure></testcase>
<testcase classname="tests.test_text" name="test_skip" file="tests/test_text.py" line="20"><skipped type="pytest.skip" message="later" /></testcase>
<testcase classname="tests.test_text" name="test_err" time="0.001"><error message="boom" /></testcase>
</testsuite></testsuites>"#;
        let s = parse(xml).unwrap();
        assert_eq!((s.passed, s.failed, s.ignored), (1, 2, 1));
        assert_eq!(
            s.failures,
            [
                "tests.test_text.TestSlug.test_bad (tests/test_text.py:15)",
                "tests.test_text.test_err",
            ]
        );
    }

    #[test]
    fn surefire_reports_have_no_line_numbers_from_zero() {
        let xml = br#"<testsuite name="com.x.FooTest" tests="2" failures="1">
<testcase name="adds" classname="com.x.FooTest" time="0.01"/>
<testcase name="subtracts" classname="com.x.FooTest" file="src/test/java/com/x/FooTest.java" line="30"><failure type="AssertionError">expected</failure></testcase>
</testsuite>"#;
        let s = parse(xml).unwrap();
        assert_eq!((s.passed, s.failed), (1, 1));
        assert_eq!(
            s.failures,
            ["com.x.FooTest.subtracts (src/test/java/com/x/FooTest.java:30)"]
        );
    }

    #[test]
    fn unplaced_report_failures_take_the_consoles_places() {
        let reports = parse(br#"<testsuite name="pytest"><testcase classname="tests.test_t.TestX" name="test_b"><failure/></testcase></testsuite>"#).unwrap();
        let console = Summary::parse(
            "_____ TestX.test_b _____\n\ntests/test_t.py:9: AssertionError\nFAILED tests/test_t.py::TestX::test_b - assert 1 == 2\n1 failed in 0.1s\n",
        );
        let merged = with_console_places(reports, &console);
        assert_eq!(
            merged.failures,
            ["tests.test_t.TestX.test_b (tests/test_t.py:9)"]
        );
    }

    #[test]
    fn a_broken_report_is_an_error() {
        assert!(parse(b"<testsuite><testcase name='a'></testsuite>").is_err());
    }

    #[test]
    fn only_reports_written_by_the_run_count() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("target/reports")).unwrap();
        std::fs::write(dir.path().join(".gitignore"), "target/\n").unwrap();
        let report = |name: &str, failed: bool| {
            let body = if failed { "<failure/>" } else { "" };
            std::fs::write(
                dir.path().join("target/reports").join(name),
                format!(
                    "<testsuite><testcase classname='c' name='{name}'>{body}</testcase></testsuite>"
                ),
            )
            .unwrap();
        };
        report("a.xml", true);
        report("b.xml", false);
        std::fs::write(dir.path().join("target/reports/notes.txt"), "x").unwrap();
        let ws = Workspace::open(dir.path()).unwrap();
        let paths = vec!["target/reports".to_string(), "missing.xml".to_string()];
        let s = summarize(&ws, &paths, 0).expect("the reports are read, ignored dir or not");
        assert_eq!((s.passed, s.failed), (1, 1));
        assert_eq!(s.failures, ["c.a.xml"]);
        // Written before the run started: not this run's.
        assert!(summarize(&ws, &paths, crate::store::now_ms() + 60_000).is_none());
    }
}
