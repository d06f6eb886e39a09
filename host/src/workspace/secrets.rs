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

use regex::Regex;
use std::borrow::Cow;
use std::sync::LazyLock;

/// What a redacted value is replaced with starts with this.
pub const MARKER: &str = "[REDACTED:";

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

/// `text` with secret-looking values replaced, and how many were; borrowed when none was.
pub fn redact(text: &str) -> (Cow<'_, str>, usize) {
    if !might_hold_secret(text) {
        return (Cow::Borrowed(text), 0);
    }
    let mut count = 0;
    let mut out = String::with_capacity(text.len());
    let mut in_key = false;
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        if in_key || KEY_BEGIN.is_match(body) {
            // A key block on one line (a JSON string with \n escapes) ends where it starts.
            in_key = !KEY_END.is_match(body) && !body.contains("\\n");
            count += 1;
            out.push_str("[REDACTED:private-key]");
            out.push_str(end);
            continue;
        }
        let (line, n) = redact_line(body);
        count += n;
        out.push_str(&line);
        out.push_str(end);
    }
    if count == 0 {
        (Cow::Borrowed(text), 0)
    } else {
        (Cow::Owned(out), count)
    }
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

/// A cheap screen before the regexes: every rule needs one of these.
fn might_hold_secret(text: &str) -> bool {
    const HINTS: &[&str] = &[
        "PRIVATE KEY",
        "gh",
        "AKIA",
        "ASIA",
        "xox",
        "sk-",
        "_live_",
        "glpat-",
        "AIza",
        "npm_",
        "hf_",
        "://",
    ];
    HINTS.iter().any(|h| text.contains(h)) || {
        let lower = text.to_ascii_lowercase();
        ["key", "secret", "token", "pass", "pwd", "credential"]
            .iter()
            .any(|h| lower.contains(h))
    }
}

fn redact_line(line: &str) -> (Cow<'_, str>, usize) {
    let mut count = 0;
    let step = TOKENS.replace_all(line, |caps: &regex::Captures<'_>| {
        count += 1;
        let kind = TOKENS
            .capture_names()
            .flatten()
            .find(|name| caps.name(name).is_some())
            .unwrap_or("token");
        format!("{MARKER}{kind}-token]")
    });
    let step = match URL_PASSWORD.replace_all(&step, |caps: &regex::Captures<'_>| {
        count += 1;
        format!("{}{MARKER}url-password]@", &caps["head"])
    }) {
        Cow::Borrowed(_) => step,
        Cow::Owned(s) => Cow::Owned(s),
    };
    let step = match ASSIGNMENT.replace_all(&step, |caps: &regex::Captures<'_>| {
        let value = &caps["value"];
        if !high_entropy(value) {
            return caps[0].to_string();
        }
        count += 1;
        format!("{}{MARKER}assignment]", &caps["head"])
    }) {
        Cow::Borrowed(_) => step,
        Cow::Owned(s) => Cow::Owned(s),
    };
    (
        if count == 0 {
            Cow::Borrowed(line)
        } else {
            Cow::Owned(step.into_owned())
        },
        count,
    )
}

/// Random-looking: letters and digits both, and at least 3 bits of entropy per character.
fn high_entropy(value: &str) -> bool {
    if value.len() < 8
        || !value.chars().any(|c| c.is_ascii_digit())
        || !value.chars().any(|c| c.is_ascii_alphabetic())
    {
        return false;
    }
    let mut counts = [0u32; 256];
    for b in value.bytes() {
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
    fn json_strings_are_redacted_in_place() {
        let mut value = serde_json::json!({"a": ["x AKIAIOSFODNN7EXAMPLE"], "b": {"c": "fine"}});
        assert_eq!(redact_json(&mut value), 1);
        assert_eq!(value["a"][0], "x [REDACTED:aws-token]");
        assert_eq!(markers(value["a"][0].as_str().unwrap()), 1);
    }
}
