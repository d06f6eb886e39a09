//! Passed / failed / ignored counts and the first failing tests, read from the result lines of
//! cargo test, pytest, unittest (and Django's runner, which prints the same), jest/vitest
//! (npm test) and go test.

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
        let lines: Vec<&str> = output.lines().collect();
        for (at, raw) in lines.iter().enumerate() {
            let line = raw.trim();
            if unittest.read(line, &lines[at + 1..], &mut s) {
                continue;
            }
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
                s.fail(name.split(" - ").next().unwrap_or(name));
            // jest / vitest: "Tests:       1 failed, 5 passed, 6 total" / "Tests  1 failed | 5 passed (6)"
            } else if line.starts_with("Tests:") || line.starts_with("Tests ") {
                s.passed += count(line, "passed");
                s.failed += count(line, "failed");
                s.ignored += count(line, "skipped") + count(line, "todo");
            } else if let Some(name) = line.strip_prefix("● ").filter(|n| n.contains(" › ")) {
                s.fail(name);
            // go: "--- FAIL: TestX (0.00s)" / "--- PASS: TestY (0.00s)"
            } else if let Some(name) = line.strip_prefix("--- FAIL: ") {
                s.failed += 1;
                s.fail(name.split(" (").next().unwrap_or(name));
            } else if line.starts_with("--- PASS: ") {
                go_pass += 1;
            } else if line.starts_with("--- SKIP: ") {
                s.ignored += 1;
            }
        }
        s.passed += go_pass;
        s
    }

    fn fail(&mut self, name: &str) {
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
