//! Passed / failed / ignored counts and the first failing tests, each with the file and line
//! it failed at when the output says, read from the result lines of cargo test, pytest,
//! unittest (and Django's runner, which prints the same), jest, vitest, mocha and go test.
//! JUnit XML reports (`[test] junit_xml`) are read by [`junit`](super::junit) instead.

use regex::Regex;
use std::collections::HashMap;
use std::sync::LazyLock;

/// Failing tests named in a summary.
const MAX_FAILURES: usize = 10;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    pub passed: u32,
    pub failed: u32,
    pub ignored: u32,
    pub failures: Vec<String>,
}

impl Summary {
    pub fn parse(output: &str) -> Self {
        let mut s = Summary::default();
        let mut go_pass = 0;
        let mut unittest = Unittest::default();
        let mut places = Places::default();
        let mut mocha_failing = false;
        let lines: Vec<&str> = output.lines().collect();
        for (at, raw) in lines.iter().enumerate() {
            let line = raw.trim();
            let after = &lines[at + 1..];
            if unittest.read(line, after, &mut s) {
                continue;
            }
            places.read(line);
            // cargo: "test result: ok. 12 passed; 1 failed; 2 ignored; ..."
            if let Some(rest) = line.strip_prefix("test result:") {
                s.passed += count(rest, "passed");
                s.failed += count(rest, "failed");
                s.ignored += count(rest, "ignored");
            } else if let Some(name) = line
                .strip_prefix("test ")
                .and_then(|l| l.strip_suffix(" ... FAILED"))
            {
                s.fail(name);
            // pytest: "==== 2 failed, 10 passed, 1 skipped in 0.3s ====" / "FAILED tests/x.py::t - ..."
            // (with -q, as the detected command runs it: "1 failed, 7 passed in 0.12s")
            } else if (line.starts_with('=') || line.starts_with(|c: char| c.is_ascii_digit()))
                && line.contains(" in ")
                && (line.contains("passed") || line.contains("failed"))
            {
                s.passed += count(line, "passed");
                s.failed += count(line, "failed") + count(line, "error") + count(line, "errors");
                s.ignored += count(line, "skipped");
            } else if let Some(name) = line.strip_prefix("FAILED ").filter(|n| !n.starts_with('('))
            {
                let id = name.split(" - ").next().unwrap_or(name);
                s.fail_at(id, places.pytest(id));
            // jest / vitest: "Tests:       1 failed, 5 passed, 6 total" / "Tests  1 failed | 5 passed (6)"
            } else if line.starts_with("Tests:") || line.starts_with("Tests ") {
                s.passed += count(line, "passed");
                s.failed += count(line, "failed");
                s.ignored += count(line, "skipped") + count(line, "todo");
            } else if let Some(name) = line.strip_prefix("● ").filter(|n| n.contains(" › ")) {
                s.fail_at(
                    name,
                    first_frame(after, |l| l.trim_start().starts_with("● ")),
                );
            // vitest: " FAIL  src/a.test.ts > suite > name", its place on a "❯ file:line:col" line
            } else if let Some(name) = line
                .strip_prefix("FAIL ")
                .map(str::trim)
                .filter(|n| n.contains(" > "))
            {
                s.fail_at(
                    name,
                    first_frame(after, |l| l.trim_start().starts_with("FAIL ")),
                );
            // mocha: "5 passing (12ms)", "1 failing", "2 pending", then "1) suite\n   name:" blocks
            } else if let Some(n) = counted(line, "passing") {
                s.passed += n;
            } else if let Some(n) = counted(line, "failing") {
                s.failed += n;
                mocha_failing = true;
            } else if let Some(n) = counted(line, "pending") {
                s.ignored += n;
            } else if mocha_failing && let Some(name) = mocha_failure(line, after) {
                let place = first_frame(after, |l| MOCHA_FAILURE.is_match(l.trim()));
                s.fail_at(&name, place);
            // go: "--- FAIL: TestX (0.00s)" then "    x_test.go:12: message" / "--- PASS: TestY (0.00s)"
            } else if let Some(name) = line.strip_prefix("--- FAIL: ") {
                s.failed += 1;
                let name = name.split(" (").next().unwrap_or(name);
                s.fail_at(name, go_place(name, &lines[..at], after));
            } else if line.starts_with("--- PASS: ") {
                go_pass += 1;
            } else if line.starts_with("--- SKIP: ") {
                s.ignored += 1;
            }
        }
        s.passed += go_pass;
        // cargo prints where each test panicked after the list of results.
        for failure in &mut s.failures {
            if let Some(place) = places.panics.get(failure.as_str()) {
                *failure = format!("{failure} ({place})");
            }
        }
        s
    }

    /// Another report's counts and failures added to these (a directory of JUnit reports).
    pub fn add(&mut self, other: Summary) {
        self.passed += other.passed;
        self.failed += other.failed;
        self.ignored += other.ignored;
        for name in &other.failures {
            self.fail(name);
        }
    }

    /// `name`, with where it failed when that is known.
    fn fail_at(&mut self, name: &str, place: Option<String>) {
        match place {
            Some(place) => self.fail(&format!("{} ({place})", name.trim())),
            None => self.fail(name),
        }
    }

    pub(super) fn fail(&mut self, name: &str) {
        let name = name.trim().to_string();
        if self.failures.len() < MAX_FAILURES && !self.failures.contains(&name) {
            self.failures.push(name);
        }
    }
}

/// unittest's report: `FAIL: test_x (pkg.tests.T.test_x)` blocks with their tracebacks, then
/// `Ran 5 tests in 0.01s` and `FAILED (failures=1, errors=1, skipped=2)` or `OK (skipped=1)`.
#[derive(Default)]
struct Unittest {
    ran: Option<u32>,
}

impl Unittest {
    /// Takes `line` if it is unittest's (with the lines after it, for a failure's place).
    fn read(&mut self, line: &str, after: &[&str], s: &mut Summary) -> bool {
        if let Some(rest) = line.strip_prefix("Ran ")
            && (rest.contains(" test in ") || rest.contains(" tests in "))
            && let Some(n) = rest.split(' ').next().and_then(|n| n.parse::<u32>().ok())
        {
            self.ran = Some(n);
            return true;
        }
        let Some(ran) = self.ran else {
            if let Some(name) = line
                .strip_prefix("FAIL: ")
                .or_else(|| line.strip_prefix("ERROR: "))
            {
                s.fail(&failure_name(name, after));
                return true;
            }
            return false;
        };
        let verdict = if let Some(rest) = line.strip_prefix("FAILED (") {
            rest
        } else if line == "OK" {
            ""
        } else if let Some(rest) = line.strip_prefix("OK (") {
            rest
        } else {
            return false;
        };
        let field = |name: &str| {
            verdict
                .trim_end_matches(')')
                .split(", ")
                .filter_map(|kv| kv.split_once('='))
                .filter(|(k, _)| *k == name)
                .filter_map(|(_, v)| v.parse::<u32>().ok())
                .sum::<u32>()
        };
        let failed = field("failures") + field("errors") + field("unexpected successes");
        let ignored = field("skipped") + field("expected failures");
        s.failed += failed;
        s.ignored += ignored;
        s.passed += ran.saturating_sub(failed + ignored);
        self.ran = None;
        true
    }
}

/// `test_x (pkg.tests.T.test_x)` as `pkg.tests.T.test_x`, with the file and line of the test's
/// own frame in the traceback that follows (`File "tests/t.py", line 12, in test_x`).
fn failure_name(header: &str, after: &[&str]) -> String {
    let (method, dotted) = match header.split_once(" (") {
        Some((method, rest)) => (method.trim(), rest.trim_end_matches(')').trim()),
        None => (header.trim(), header.trim()),
    };
    let name = if dotted.ends_with(&format!(".{method}")) {
        dotted.to_string()
    } else {
        format!("{dotted}.{method}")
    };
    let place = after
        .iter()
        .take_while(|l| {
            !l.starts_with("FAIL: ") && !l.starts_with("ERROR: ") && !l.starts_with("Ran ")
        })
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("File \"")?;
            let (file, rest) = rest.split_once("\", line ")?;
            let (line, function) = rest.split_once(", in ")?;
            (function.trim() == method).then(|| format!("{file}:{line}"))
        })
        .last();
    match place {
        Some(place) => format!("{name} ({place})"),
        None => name,
    }
}

/// Where failures happened, as the output goes: cargo's panic lines, pytest's sections.
#[derive(Default)]
struct Places {
    /// cargo: `thread 'a::b' panicked at src/x.rs:12:5:`, by test name.
    panics: HashMap<String, String>,
    /// pytest: the first `file:line: ` of each `____ name ____` section, by that name.
    sections: HashMap<String, String>,
    section: Option<String>,
}

static CARGO_PANIC: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^thread '([^']+)' panicked at ([^:\s]+):(\d+):").unwrap());
static PYTEST_SECTION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^_{3,} (.+?) _{3,}$").unwrap());
static PYTEST_PLACE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([^\s:]+\.py):(\d+):(?:\s|$)").unwrap());
static GO_PLACE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s+([^\s:]+\.go):(\d+):").unwrap());
/// A stack frame or code pointer of JavaScript: `at f (src/a.test.js:12:5)`, `❯ src/a.ts:3:9`.
static JS_FRAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:\(|❯ |at )((?:[A-Za-z]:)?[^\s():]+\.(?:[cm]?[jt]sx?)):(\d+):\d+").unwrap()
});
static MOCHA_FAILURE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\d+\) \S").unwrap());

impl Places {
    fn read(&mut self, line: &str) {
        if let Some(c) = CARGO_PANIC.captures(line) {
            self.panics
                .insert(c[1].to_string(), format!("{}:{}", &c[2], &c[3]));
        } else if let Some(c) = PYTEST_SECTION.captures(line) {
            self.section = Some(c[1].to_string());
        } else if let Some(c) = PYTEST_PLACE.captures(line)
            && let Some(section) = self.section.take()
        {
            // The section's first place is the test's own frame.
            self.sections
                .entry(section)
                .or_insert_with(|| format!("{}:{}", &c[1], &c[2]));
        }
    }

    /// The place of pytest's `tests/t.py::TestX::test_b[1]`, from its section `TestX.test_b[1]`.
    fn pytest(&self, id: &str) -> Option<String> {
        let (_, name) = id.split_once("::")?;
        self.sections.get(&name.replace("::", ".")).cloned()
    }
}

/// The first JavaScript frame outside node_modules in the lines after a failure's header,
/// up to the next header (`stop`).
fn first_frame(after: &[&str], stop: impl Fn(&str) -> bool) -> Option<String> {
    after
        .iter()
        .take_while(|l| !stop(l))
        .flat_map(|l| JS_FRAME.captures_iter(l))
        .find(|c| !c[1].contains("node_modules") && !c[1].starts_with("node:"))
        .map(|c| format!("{}:{}", &c[1], &c[2]))
}

/// Where go's test `name` failed: its messages follow `--- FAIL` (plain `go test`), or come
/// before it, after its `=== RUN` line (`go test -v`); never another test's.
fn go_place(name: &str, before: &[&str], after: &[&str]) -> Option<String> {
    let place = |l: &&str| GO_PLACE.captures(l).map(|c| format!("{}:{}", &c[1], &c[2]));
    let following = after
        .iter()
        .take_while(|l| {
            let t = l.trim_start();
            !t.starts_with("--- ") && !t.starts_with("=== ")
        })
        .find_map(place);
    following.or_else(|| {
        let run = format!("=== RUN   {name}");
        let from = before.iter().rposition(|l| l.trim_end() == run)?;
        before[from + 1..]
            .iter()
            .take_while(|l| !l.trim_start().starts_with("=== "))
            .find_map(place)
    })
}

/// mocha's "N passing (12ms)" / "N failing" / "N pending", as N.
fn counted(line: &str, word: &str) -> Option<u32> {
    let (n, rest) = line.split_once(' ')?;
    let rest = rest.trim_start();
    (rest == word || rest.starts_with(&format!("{word} ("))).then_some(())?;
    n.parse().ok()
}

/// A mocha failure block: `1) suite` then its titles, indented, up to the one ending in `:`
/// (`does a thing:`), as "suite does a thing".
fn mocha_failure(line: &str, after: &[&str]) -> Option<String> {
    if !MOCHA_FAILURE.is_match(line) {
        return None;
    }
    let first = line.split_once(") ")?.1.trim();
    let mut titles = vec![first.trim_end_matches(':').to_string()];
    if !first.ends_with(':') {
        for l in after.iter().take(8) {
            let t = l.trim();
            if t.is_empty() {
                break;
            }
            titles.push(t.trim_end_matches(':').to_string());
            if t.ends_with(':') {
                break;
            }
        }
    }
    Some(titles.join(" "))
}

/// The number right before `word` ("12 passed"), summed over occurrences.
fn count(text: &str, word: &str) -> u32 {
    let tokens: Vec<&str> = text
        .split(|c: char| {
            c.is_whitespace() || c == ',' || c == ';' || c == '|' || c == '(' || c == ')'
        })
        .filter(|t| !t.is_empty())
        .collect();
    tokens
        .windows(2)
        .filter(|w| w[1].trim_end_matches(['.', ':']) == word)
        .filter_map(|w| w[0].parse::<u32>().ok())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cargo_results_add_up_over_binaries() {
        let out = "running 2 tests\ntest a::b ... ok\ntest a::c ... FAILED\n\ntest result: FAILED. 1 passed; 1 failed; 3 ignored; 0 measured\n\ntest result: ok. 4 passed; 0 failed; 0 ignored\n";
        let s = Summary::parse(out);
        assert_eq!((s.passed, s.failed, s.ignored), (5, 1, 3));
        assert_eq!(s.failures, ["a::c"]);
    }

    #[test]
    fn pytest_summary_line() {
        let out = "FAILED tests/test_x.py::test_one - AssertionError: boom\n========= 1 failed, 7 passed, 2 skipped in 0.12s =========\n";
        let s = Summary::parse(out);
        assert_eq!((s.passed, s.failed, s.ignored), (7, 1, 2));
        assert_eq!(s.failures, ["tests/test_x.py::test_one"]);
    }

    #[test]
    fn pytest_quiet_summary_line() {
        let s = Summary::parse(
            "..F\nFAILED tests/t.py::test_b - assert 1 == 2\n1 failed, 2 passed in 0.05s\n",
        );
        assert_eq!((s.passed, s.failed), (2, 1));
        assert_eq!(s.failures, ["tests/t.py::test_b"]);
    }

    #[test]
    fn unittest_and_django_runs_are_counted_and_failures_placed() {
        let passing = "System check identified no issues (0 silenced).\n......s.\n----------------------------------------------------------------------\nRan 8 tests in 0.021s\n\nOK (skipped=1)\n";
        let s = Summary::parse(passing);
        assert_eq!((s.passed, s.failed, s.ignored), (7, 0, 1));
        let failing = "..F.E\n\
            ======================================================================\n\
            FAIL: test_slug (utils_tests.test_text.TestUtilsText.test_slug)\n\
            ----------------------------------------------------------------------\n\
            Traceback (most recent call last):\n  \
              File \"/src/django/test/utils.py\", line 40, in inner\n    return f()\n  \
              File \"/src/tests/utils_tests/test_text.py\", line 212, in test_slug\n    self.assertEqual(a, b)\n\
            AssertionError: 'a' != 'b'\n\n\
            ======================================================================\n\
            ERROR: test_wrap (utils_tests.test_text.TestUtilsText)\n\
            ----------------------------------------------------------------------\n\
            Traceback (most recent call last):\n  \
              File \"/src/tests/utils_tests/test_text.py\", line 30, in test_wrap\n    wrap()\n\
            TypeError: boom\n\n\
            ----------------------------------------------------------------------\n\
            Ran 5 tests in 0.004s\n\nFAILED (failures=1, errors=1)\n";
        let s = Summary::parse(failing);
        assert_eq!((s.passed, s.failed, s.ignored), (3, 2, 0));
        assert_eq!(
            s.failures,
            [
                "utils_tests.test_text.TestUtilsText.test_slug (/src/tests/utils_tests/test_text.py:212)",
                "utils_tests.test_text.TestUtilsText.test_wrap (/src/tests/utils_tests/test_text.py:30)",
            ]
        );
    }

    #[test]
    fn failures_carry_their_file_and_line() {
        // cargo: where each test panicked, printed after the results.
        let s = Summary::parse(
            "test a::c ... FAILED\n\nfailures:\n\n---- a::c stdout ----\nthread 'a::c' panicked at src/lib.rs:12:5:\nassertion failed\n\ntest result: FAILED. 1 passed; 1 failed; 0 ignored\n",
        );
        assert_eq!(s.failures, ["a::c (src/lib.rs:12)"]);
        // pytest: the test's own frame in its section, class methods and parameters too.
        let s = Summary::parse(
            "__________________ TestX.test_b[1] __________________\n\n    def test_b(self, n):\n>       helper(n)\n\ntests/t.py:9: \n_ _ _\n\n    def helper(n):\n>       assert n == 2\nE       assert 1 == 2\n\ntests/util.py:3: AssertionError\n=========================== short test summary info ============================\nFAILED tests/t.py::TestX::test_b[1] - assert 1 == 2\n1 failed, 2 passed in 0.05s\n",
        );
        assert_eq!(s.failures, ["tests/t.py::TestX::test_b[1] (tests/t.py:9)"]);
        // go: the message line under the failure.
        let s = Summary::parse(
            "=== RUN   TestB\n    b_test.go:12: got 1, want 2\n--- FAIL: TestB (0.01s)\n    b_test.go:12: got 1, want 2\nFAIL\n",
        );
        assert_eq!(s.failures, ["TestB (b_test.go:12)"]);
        // go test -v: a failing test's messages come before its verdict; the next test's
        // lines are never taken for its place.
        let s = Summary::parse(
            "=== RUN   TestA\n    a_test.go:7: boom\n--- FAIL: TestA (0.00s)\n=== RUN   TestB\n    b_test.go:20: log\n--- PASS: TestB (0.00s)\nFAIL\n",
        );
        assert_eq!(s.failures, ["TestA (a_test.go:7)"]);
        // jest: the first frame that is not a dependency's.
        let s = Summary::parse(
            "  ● math › adds\n\n    expect(received).toBe(expected)\n\n      at Object.toBe (node_modules/expect/build/index.js:3:1)\n      at Object.<anonymous> (src/math.test.js:7:17)\n\nTests:       1 failed, 3 passed, 4 total\n",
        );
        assert_eq!((s.passed, s.failed), (3, 1));
        assert_eq!(s.failures, ["math › adds (src/math.test.js:7)"]);
        // vitest: the FAIL line and its ❯ pointer.
        let s = Summary::parse(
            " FAIL  src/a.test.ts > suite > adds\nAssertionError: expected 1 to be 2\n ❯ src/a.test.ts:5:13\n\n Tests  1 failed | 2 passed (3)\n",
        );
        assert_eq!((s.passed, s.failed), (2, 1));
        assert_eq!(
            s.failures,
            ["src/a.test.ts > suite > adds (src/a.test.ts:5)"]
        );
    }

    #[test]
    fn mocha_counts_and_failures() {
        let out = "\n  math\n    ✓ adds\n    1) subtracts\n\n\n  3 passing (9ms)\n  1 failing\n  2 pending\n\n  1) math\n       subtracts:\n\n      AssertionError [ERR_ASSERTION]: 1 == 2\n      at Context.<anonymous> (test/math.js:12:14)\n      at process.processImmediate (node:internal/timers:476:21)\n";
        let s = Summary::parse(out);
        assert_eq!((s.passed, s.failed, s.ignored), (3, 1, 2));
        assert_eq!(s.failures, ["math subtracts (test/math.js:12)"]);
    }

    #[test]
    fn jest_and_go() {
        let s =
            Summary::parse("  ● suite › does a thing\nTests:       1 failed, 5 passed, 6 total\n");
        assert_eq!((s.passed, s.failed), (5, 1));
        assert_eq!(s.failures, ["suite › does a thing"]);
        let s = Summary::parse("--- PASS: TestA (0.00s)\n--- FAIL: TestB (0.01s)\nFAIL\n");
        assert_eq!((s.passed, s.failed), (1, 1));
        assert_eq!(s.failures, ["TestB"]);
    }
}
