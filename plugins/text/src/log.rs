//! Logs: a line that starts with a timestamp or a severity starts an entry, the lines after it
//! (stack traces, wrapped messages) belong to it. Consecutive entries form a section until the
//! severity changes between errors and the rest, or the section grows long, so an error burst
//! with its traces reads as one section.

use super::{MAX_CHARS, SECTION_LINES};
use sdk::doc::{Document, OutlineBuilder};

/// Error bursts may grow longer than ordinary runs before they are split.
const ERROR_SECTION_LINES: usize = 4 * SECTION_LINES;

const ERROR_WORDS: &[&str] = &[
    "ERROR", "ERR", "FATAL", "CRITICAL", "CRIT", "SEVERE", "PANIC", "EMERG", "ALERT",
];
const OTHER_WORDS: &[&str] = &[
    "WARN", "WARNING", "INFO", "NOTICE", "DEBUG", "TRACE", "FINE", "VERBOSE",
];

/// Most of the first non-empty lines start with a timestamp or a severity.
pub fn looks_like_log(text: &str) -> bool {
    let sample: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(20)
        .collect();
    sample.len() >= 2
        && sample.iter().filter(|l| entry(l).is_some()).count() * 10 >= sample.len() * 6
}

/// What an entry line says: its timestamp as written (if any) and whether it is an error.
struct Entry<'a> {
    timestamp: Option<&'a str>,
    error: bool,
}

pub fn sections(text: &str) -> Document {
    let mut out = OutlineBuilder::new(MAX_CHARS);
    let mut open: Option<bool> = None;
    let mut length = 0usize;
    for (i, line) in text.lines().enumerate() {
        let starts = entry(line);
        let split = match (&starts, open) {
            (_, None) => true,
            (Some(e), Some(error)) => {
                e.error != error
                    || length
                        >= if error {
                            ERROR_SECTION_LINES
                        } else {
                            SECTION_LINES
                        }
            }
            // A continuation line never starts a section, unless a runaway one is too long.
            (None, Some(_)) => length >= ERROR_SECTION_LINES * 2,
        };
        if split {
            let error = starts.as_ref().is_some_and(|e| e.error);
            let label = if error { "ERROR" } else { "entries" };
            let at = match starts.as_ref().and_then(|e| e.timestamp) {
                Some(ts) => ts.trim_matches(['[', ']', '(', ')']).to_string(),
                None => format!("line {}", i + 1),
            };
            let id = if error { "errors" } else { "entries" };
            out.section(id, vec![format!("{label} {at}")], 1);
            open = Some(error);
            length = 0;
        }
        if !out.line(line) {
            break;
        }
        length += 1;
    }
    out.finish("log")
}

fn entry(line: &str) -> Option<Entry<'_>> {
    let ts_len = timestamp_len(line);
    let timestamp = (ts_len > 0).then(|| &line[..ts_len]);
    let rest = &line[ts_len..];
    let severity = rest
        .split(|c: char| c.is_whitespace() || matches!(c, '[' | ']' | ':' | '|' | '<' | '>'))
        .filter(|w| !w.is_empty())
        .take(4)
        .find_map(|w| {
            let upper = w.to_ascii_uppercase();
            if ERROR_WORDS.contains(&upper.as_str()) {
                Some(true)
            } else if OTHER_WORDS.contains(&upper.as_str()) {
                Some(false)
            } else {
                None
            }
        });
    if timestamp.is_none() && severity.is_none() {
        return None;
    }
    Some(Entry {
        timestamp,
        error: severity.unwrap_or(false) || rest.contains("Traceback (most recent call last)"),
    })
}

/// Length of a leading timestamp: ISO dates with a time (`2024-05-01T10:00:00`, `2024/05/01
/// 10:00`), syslog (`May  1 10:00:00`), a bare time (`10:00:00`) or a kernel uptime
/// (`[   12.345678]`), optionally in brackets.
fn timestamp_len(line: &str) -> usize {
    let b = line.as_bytes();
    let open = usize::from(matches!(b.first(), Some(b'[' | b'(')));
    let s = &b[open..];
    let digits = |from: usize, n: usize| {
        s.len() >= from + n && s[from..from + n].iter().all(u8::is_ascii_digit)
    };
    let time_at =
        |from: usize| digits(from, 2) && s.get(from + 2) == Some(&b':') && digits(from + 3, 2);
    let mut end = if digits(0, 4)
        && matches!(s.get(4), Some(b'-' | b'/'))
        && digits(5, 2)
        && s.get(7) == s.get(4)
        && digits(8, 2)
        && matches!(s.get(10), Some(b'T' | b' '))
        && time_at(11)
    {
        16
    } else if s.len() > 15
        && s[..3].iter().all(u8::is_ascii_alphabetic)
        && s[3] == b' '
        && (s[4] == b' ' || s[4].is_ascii_digit())
        && s[5].is_ascii_digit()
        && s[6] == b' '
        && time_at(7)
    {
        12
    } else if time_at(0) {
        5
    } else if open == 1 && s.iter().take_while(|c| **c == b' ').count() < s.len() {
        let t = s.iter().position(|c| *c == b']').unwrap_or(0);
        let inner = &s[..t];
        if t > 0
            && inner
                .iter()
                .all(|c| c.is_ascii_digit() || *c == b'.' || *c == b' ')
            && inner.contains(&b'.')
        {
            return open + t + 1;
        }
        return 0;
    } else {
        return 0;
    };
    // Seconds, fractions and zones: whatever timestamp characters follow.
    while end < s.len()
        && (s[end].is_ascii_digit() || matches!(s[end], b':' | b'.' | b',' | b'Z' | b'+' | b'-'))
    {
        end += 1;
    }
    if open == 1 && matches!(s.get(end), Some(b']' | b')')) {
        end += 1;
    }
    open + end
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "\
2024-05-01 10:00:00,120 INFO server started
2024-05-01 10:00:01,004 INFO listening on :8080
2024-05-01 10:00:05,310 ERROR request failed
Traceback (most recent call last):
  File \"app.py\", line 3, in handler
ValueError: bad input
2024-05-01 10:00:05,311 ERROR rollback failed
2024-05-01 10:00:09,000 INFO recovered
";

    #[test]
    fn error_bursts_are_their_own_sections() {
        let doc = sections(LOG);
        assert_eq!(doc.kind, "log");
        let ids: Vec<_> = doc.sections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["entries", "errors", "entries~2"]);
        let burst = &doc.sections[1];
        assert_eq!((burst.start_line, burst.end_line), (3, 7));
        assert_eq!(burst.heading_path, ["ERROR 2024-05-01 10:00:05,310"]);
        assert!(burst.text.contains("ValueError: bad input"));
    }

    #[test]
    fn timestamps_in_common_shapes() {
        for (line, len) in [
            ("2024-05-01T10:00:00.123Z rest", 24),
            ("[2024/05/01 10:00:00] x", 21),
            ("May  1 10:00:00 host sshd", 15),
            ("10:00:00 tick", 8),
            ("[   12.345678] usb 1-1", 14),
            ("plain words", 0),
            ("[note] words", 0),
        ] {
            assert_eq!(timestamp_len(line), len, "{line}");
        }
    }

    #[test]
    fn severity_without_timestamp_starts_entries() {
        let doc = sections("INFO a\nINFO b\nERROR: c\n  at x\nINFO d\n");
        assert_eq!(doc.sections.len(), 3);
        assert_eq!(doc.sections[1].heading_path, ["ERROR line 3"]);
        assert!(looks_like_log("INFO a\nWARN b\nsomething\n"));
        assert!(!looks_like_log("Dear reader,\nthis is prose.\n"));
    }
}
