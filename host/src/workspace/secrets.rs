//! The secret guard: the content half of the sensitive rules ([`super::policy`] is the path
//! half). A secret pasted into an ordinary file (a config, a test fixture, a remote URL) is
//! still a secret, so lines that look like one are redacted in everything the server returns
//! and before anything is indexed:
//!
//! - private key blocks (`-----BEGIN ... PRIVATE KEY-----` to its END line), every line of them;
//! - well-known token shapes: GitHub (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`),
//!   AWS access key ids (`AKIA...`), Slack (`xoxb-`...), OpenAI / Anthropic style `sk-...`,
//!   Stripe live keys, GitLab (`glpat-`), Google API keys (`AIza...`), npm (`npm_`), Hugging
//!   Face (`hf_`);
//! - the password of a URL with credentials (`https://user:TOKEN@host`);
//! - `KEY=`, `TOKEN:`, `PASSWORD =`, `secret:`... assignments whose value is high-entropy
//!   (at least 8 characters, letters and digits, 3 bits of entropy per character), so
//!   `password = get_password()` or `token_type = "bearer"` stay readable.
//!
//! Redaction keeps every line where it was (line numbers stay true) and says what it hid:
//! `[REDACTED:github-token]`.

use regex::bytes::Regex;
use std::borrow::Cow;
use std::ops::Range;
use std::sync::LazyLock;

/// What a redacted value is replaced with starts with this.
pub const MARKER: &str = "[REDACTED:";

/// Longest piece redacted as one line: a longer line is cut into pieces of this many bytes
/// (a value across a cut is not recognised), so a one-line gigabyte is redacted in bounded
/// memory and the same way whether it is read whole or streamed.
const LINE_CAP: usize = 1 << 20;

static TOKENS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\b(?:",
        r"(?P<github>(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}))",
        r"|(?P<aws>(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16})",
        r"|(?P<slack>xox[abposr]-[A-Za-z0-9-]{10,})",
        r"|(?P<apikey>sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,})",
        r"|(?P<stripe>[rs]k_live_[A-Za-z0-9]{16,})",
        r"|(?P<gitlab>glpat-[A-Za-z0-9_-]{20,})",
        r"|(?P<google>AIza[0-9A-Za-z_-]{35})",
        r"|(?P<npm>npm_[A-Za-z0-9]{36})",
        r"|(?P<huggingface>hf_[A-Za-z0-9]{30,})",
        r")\b",
    ))
    .expect("a valid token pattern")
});

static URL_PASSWORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]+:)(?P<password>[^/\s@]{3,})@")
        .expect("a valid URL pattern")
});

static ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)(?P<head>[A-Za-z0-9_.-]*(?:api[_-]?key|secret|token|passw(?:or)?d|pwd|credential|auth[_-]?key|access[_-]?key|private[_-]?key)[A-Za-z0-9_.-]*",
        r#"["']?\s*[:=]>?\s*["']?)"#,
        r"(?P<value>[A-Za-z0-9+/=_\-.~!@#$%^&*]{8,})",
    ))
    .expect("a valid assignment pattern")
});

static KEY_BEGIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----").expect("a valid pattern")
});
static KEY_END: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----").expect("a valid pattern")
});

/// A cheap screen before the rules, applied to each line: the literal each rule needs (its
/// token prefixes, the key-block header, `://`, the assignment keywords), so a line without
/// one cannot match any rule, and common words (`high`, `pass`, `key`) do not send every
/// line through the rules.
static HINTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"PRIVATE KEY|gh[pousr]_|github_pat_|AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA",
        r"|xox[abposr]-|sk-|_live_|glpat-|AIza|npm_|hf_|://",
        r"|(?i:api[_-]?key|secret|token|passw(?:or)?d|pwd|credential|auth[_-]?key",
        r"|access[_-]?key|private[_-]?key)",
    ))
    .expect("a valid hint pattern")
});

/// One hidden value: the bytes it covers in the raw text and the marker shown instead.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    pub raw: Range<usize>,
    pub marker: String,
}

/// Where `bytes` hold secret-looking values, in order and apart: what [`view`] replaces.
pub fn spans(bytes: &[u8]) -> Vec<Span> {
    let mut out = Vec::new();
    scan(bytes, true, &mut false, &mut out);
    out
}

/// `bytes` with every span replaced by its marker; borrowed when there is none.
pub fn view<'a>(bytes: &'a [u8], spans: &[Span]) -> Cow<'a, [u8]> {
    if spans.is_empty() {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    write_view(bytes, spans, &mut |piece| out.extend_from_slice(piece));
    Cow::Owned(out)
}

/// `text` with secret-looking values replaced, and how many were; borrowed when none was.
pub fn redact(text: &str) -> (Cow<'_, str>, usize) {
    let found = spans(text.as_bytes());
    if found.is_empty() {
        return (Cow::Borrowed(text), 0);
    }
    // Spans cover whole matches of ASCII rules or whole lines, so the view stays UTF-8.
    let bytes = view(text.as_bytes(), &found).into_owned();
    let text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (Cow::Owned(text), found.len())
}

/// The secret guard over a stream: bytes in, their redacted view out, in bounded memory
/// (a line is held until its end or [`LINE_CAP`]). Gives what [`spans`] and [`view`] give
/// on the whole, however the input is cut.
#[derive(Default)]
pub struct Redactor {
    pending: Vec<u8>,
    in_key: bool,
    hidden: usize,
}

impl Redactor {
    /// Takes the next bytes and emits the view of every line they complete.
    pub fn push(&mut self, chunk: &[u8], emit: &mut impl FnMut(&[u8])) {
        self.pending.extend_from_slice(chunk);
        // Only a new line end or a full piece completes anything.
        if chunk.contains(&b'\n') || self.pending.len() >= LINE_CAP {
            self.run(false, emit);
        }
    }

    /// Emits the rest; returns how many values were hidden in all.
    pub fn finish(mut self, emit: &mut impl FnMut(&[u8])) -> usize {
        self.run(true, emit);
        self.hidden
    }

    fn run(&mut self, last: bool, emit: &mut impl FnMut(&[u8])) {
        let mut found = Vec::new();
        let consumed = scan(&self.pending, last, &mut self.in_key, &mut found);
        self.hidden += found.len();
        write_view(&self.pending[..consumed], &found, emit);
        self.pending.drain(..consumed);
    }
}

fn write_view(bytes: &[u8], spans: &[Span], emit: &mut impl FnMut(&[u8])) {
    let mut at = 0;
    for span in spans {
        emit(&bytes[at..span.raw.start]);
        emit(span.marker.as_bytes());
        at = span.raw.end;
    }
    emit(&bytes[at..]);
}

/// Finds the spans of the complete lines of `bytes` (all of it when `last`), offsets from the
/// start of `bytes`; returns how many bytes it consumed. A line ends at `\n` or after
/// [`LINE_CAP`] bytes, whichever comes first.
fn scan(bytes: &[u8], last: bool, in_key: &mut bool, out: &mut Vec<Span>) -> usize {
    let mut start = 0;
    // Where a rule's hint is, found in one pass over the whole: only the lines a hint
    // touches need a look (and those of a key block). A line no reported hint touches has
    // none inside it: one inside would be reported, or overlap one that is.
    let mut hints = HINTS.find_iter(bytes).map(|m| m.range()).peekable();
    while start < bytes.len() {
        let rest = &bytes[start..];
        let window = &rest[..rest.len().min(LINE_CAP)];
        let (line, step) = match memchr::memchr(b'\n', window) {
            Some(i) => (i, i + 1),
            None if rest.len() >= LINE_CAP => (LINE_CAP, LINE_CAP),
            None if last => (rest.len(), rest.len()),
            None => break,
        };
        let end = start + line;
        // Hints never hold a line end: the next one left ends past this line's start.
        let hinted = hints.peek().is_some_and(|h| h.start < end);
        if *in_key || hinted {
            scan_line(&rest[..line], start, in_key, out);
        }
        // Those within this line are done with; one running on past a cut piece stays.
        while hints.next_if(|h| h.end <= end).is_some() {}
        start += step;
    }
    start
}

/// The spans of one line (no `\n`), at `base`.
fn scan_line(line: &[u8], base: usize, in_key: &mut bool, out: &mut Vec<Span>) {
    if *in_key || KEY_BEGIN.is_match(line) {
        // A key block on one line (a JSON string with \n escapes) ends where it starts.
        *in_key = !KEY_END.is_match(line) && !line.windows(2).any(|w| w == b"\\n");
        out.push(Span {
            raw: base..base + line.len(),
            marker: format!("{MARKER}private-key]"),
        });
        return;
    }
    if !HINTS.is_match(line) {
        return;
    }
    let mut found: Vec<Span> = Vec::new();
    for caps in TOKENS.captures_iter(line) {
        let kind = TOKENS
            .capture_names()
            .flatten()
            .find(|name| caps.name(name).is_some())
            .unwrap_or("token");
        let m = caps.get(0).expect("the whole match");
        found.push(Span {
            raw: m.range(),
            marker: format!("{MARKER}{kind}-token]"),
        });
    }
    for caps in URL_PASSWORD.captures_iter(line) {
        let m = caps.name("password").expect("a password group");
        found.push(Span {
            raw: m.range(),
            marker: format!("{MARKER}url-password]"),
        });
    }
    for caps in ASSIGNMENT.captures_iter(line) {
        let m = caps.name("value").expect("a value group");
        if high_entropy(m.as_bytes()) {
            found.push(Span {
                raw: m.range(),
                marker: format!("{MARKER}assignment]"),
            });
        }
    }
    // Overlapping finds hide one value once, under the first rule's name.
    found.sort_by_key(|s| s.raw.start);
    let mut merged: Vec<Span> = Vec::new();
    for span in found {
        match merged.last_mut() {
            Some(last) if span.raw.start < last.raw.end => {
                last.raw.end = last.raw.end.max(span.raw.end);
            }
            _ => merged.push(span),
        }
    }
    out.extend(merged.into_iter().map(|s| Span {
        raw: base + s.raw.start..base + s.raw.end,
        marker: s.marker,
    }));
}

/// Redacts every string in a JSON value in place; returns how many values were hidden.
pub fn redact_json(value: &mut serde_json::Value) -> usize {
    match value {
        serde_json::Value::String(s) => {
            let (redacted, n) = redact(s);
            if n > 0 {
                *s = redacted.into_owned();
            }
            n
        }
        serde_json::Value::Array(items) => items.iter_mut().map(redact_json).sum(),
        serde_json::Value::Object(map) => map.values_mut().map(redact_json).sum(),
        _ => 0,
    }
}

/// How many redaction markers `text` carries.
pub fn markers(text: &str) -> usize {
    text.matches(MARKER).count()
}

/// Random-looking: letters and digits both, and at least 3 bits of entropy per character.
fn high_entropy(value: &[u8]) -> bool {
    if value.len() < 8
        || !value.iter().any(|c| c.is_ascii_digit())
        || !value.iter().any(|c| c.is_ascii_alphabetic())
    {
        return false;
    }
    let mut counts = [0u32; 256];
    for &b in value {
        counts[b as usize] += 1;
    }
    let n = value.len() as f64;
    let entropy: f64 = counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum();
    entropy >= 3.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hidden(text: &str) -> String {
        let (out, n) = redact(text);
        assert!(n > 0, "nothing redacted in {text:?}");
        out.into_owned()
    }

    #[test]
    fn token_shapes_are_redacted() {
        for (secret, kind) in [
            ("ghp_abcdefghijklmnopqrstuvwxyz0123456789", "github"),
            ("AKIAIOSFODNN7EXAMPLE", "aws"),
            ("xoxb-1234567890-abcdefghij", "slack"),
            ("sk-ant-api03-abcdefghijklmnopqrstuvwx", "apikey"),
            ("glpat-abcdefghijklmnopqrst", "gitlab"),
        ] {
            let out = hidden(&format!("token here: {secret} end\n"));
            assert!(!out.contains(secret), "{out}");
            assert!(out.contains(&format!("[REDACTED:{kind}-token]")), "{out}");
            assert!(out.ends_with(" end\n"));
        }
    }

    #[test]
    fn assignments_need_a_random_looking_value() {
        let out = hidden("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n");
        assert_eq!(out, "aws_secret_access_key = [REDACTED:assignment]\n");
        let out = hidden("SECRET_KEY = 'django-insecure-k3y!x9#q2@vb7m0z'\n");
        assert!(
            out.starts_with("SECRET_KEY = '[REDACTED:assignment]"),
            "{out}"
        );
        for fine in [
            "password = get_password()\n",
            "token_type = \"bearer\"\n",
            "let key = map.get(&name);\n",
            "PASSWORD_MIN_LENGTH = 8\n",
            "api_key: ${API_KEY}\n",
        ] {
            assert_eq!(redact(fine), (Cow::Borrowed(fine), 0), "{fine}");
        }
    }

    #[test]
    fn key_blocks_and_url_passwords() {
        let text = "a\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\nAAAA\n-----END OPENSSH PRIVATE KEY-----\nz\n";
        let out = hidden(text);
        assert_eq!(out.lines().count(), text.lines().count(), "lines stay put");
        assert!(!out.contains("b3BlbnNzaC1rZXk") && out.starts_with("a\n") && out.ends_with("z\n"));
        let url = hidden("\turl = https://bot:ghx0123456789secretvalue@github.com/o/r.git\n");
        assert_eq!(
            url,
            "\turl = https://bot:[REDACTED:url-password]@github.com/o/r.git\n"
        );
        let json = hidden(
            r#"{"private_key": "-----BEGIN PRIVATE KEY-----\nMIIEv\n-----END PRIVATE KEY-----\n", "x": 1}"#,
        );
        assert!(!json.contains("MIIEv"));
    }

    #[test]
    fn a_stream_cut_anywhere_redacts_as_the_whole() {
        let mut text = b"a\nsecret_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n".to_vec();
        text.extend_from_slice(
            b"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n\n-----END RSA PRIVATE KEY-----\n",
        );
        text.extend_from_slice(b"\xff\xfe ghp_abcdefghijklmnopqrstuvwxyz0123456789 \xc3\n");
        text.extend_from_slice(&vec![b'x'; LINE_CAP + 10]);
        text.extend_from_slice(b" AKIAIOSFODNN7EXAMPLE\nend");
        let found = spans(&text);
        let whole = view(&text, &found).into_owned();
        assert_eq!(found.len(), 7, "{found:?}");
        for cut in [1, 7, 4096, 65536, LINE_CAP - 1, LINE_CAP + 3] {
            let mut redactor = Redactor::default();
            let mut out = Vec::new();
            for chunk in text.chunks(cut) {
                redactor.push(chunk, &mut |p: &[u8]| out.extend_from_slice(p));
            }
            let hidden = redactor.finish(&mut |p: &[u8]| out.extend_from_slice(p));
            assert_eq!((hidden, out.len()), (found.len(), whole.len()), "cut {cut}");
            assert!(out == whole, "cut {cut}");
        }
    }

    #[test]
    fn every_token_prefix_passes_the_screen_on_its_own_line() {
        for line in [
            "AIDAIOSFODNN7EXAMPLE\n",
            "role AROAIOSFODNN7EXAMPLE\n",
            "xoxp-1234567890-abcdefghij\n",
        ] {
            assert_eq!(redact(line).1, 1, "{line}");
        }
    }

    #[test]
    fn lines_that_are_not_utf8_are_redacted_too() {
        let raw = b"\xff\xfe token ghp_abcdefghijklmnopqrstuvwxyz0123456789 \xfe\n";
        let shown = view(raw, &spans(raw)).into_owned();
        assert_eq!(shown, b"\xff\xfe token [REDACTED:github-token] \xfe\n");
    }

    #[test]
    fn json_strings_are_redacted_in_place() {
        let mut value = serde_json::json!({"a": ["x AKIAIOSFODNN7EXAMPLE"], "b": {"c": "fine"}});
        assert_eq!(redact_json(&mut value), 1);
        assert_eq!(value["a"][0], "x [REDACTED:aws-token]");
        assert_eq!(markers(value["a"][0].as_str().unwrap()), 1);
    }
}
