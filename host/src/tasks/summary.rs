//! Passed / failed / ignored counts and the first failing tests, read from the result lines of
//! cargo test, pytest, jest/vitest (npm test) and go test.

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
        for raw in output.lines() {
            let line = raw.trim();
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
            } else if line.starts_with('=')
                && line.contains(" in ")
                && (line.contains("passed") || line.contains("failed"))
            {
                s.passed += count(line, "passed");
                s.failed += count(line, "failed") + count(line, "error") + count(line, "errors");
                s.ignored += count(line, "skipped");
            } else if let Some(name) = line.strip_prefix("FAILED ") {
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
