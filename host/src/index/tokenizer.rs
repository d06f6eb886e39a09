//! Identifier-aware tokenization: `fooBar`, `foo_bar` and `FooBar` all yield `foo` and `bar`,
//! and the whole identifier (`foobar`, `foo_bar`) is a token too, so both a part and the exact
//! name match. Parts take consecutive positions so phrase queries work across identifiers.

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};

/// The name the tokenizer is registered under in the tantivy index.
pub const NAME: &str = "ident";

/// Tokens longer than this (hashes, base64 blobs) are dropped: they bloat the index and are
/// never typed as a query.
const MAX_TOKEN_CHARS: usize = 64;

/// Reuses its tokens (and their strings) from one text to the next: indexing tokenizes
/// millions of words, and an allocation per token was a tenth of the time.
#[derive(Clone, Default)]
pub struct IdentTokenizer {
    buffer: TokenBuffer,
}

/// Tokens in use are `tokens[..used]`; the rest are kept for their allocations.
#[derive(Clone, Default)]
pub struct TokenBuffer {
    tokens: Vec<Token>,
    used: usize,
}

impl TokenBuffer {
    fn push(&mut self, text: &str, from: usize, to: usize, position: usize, length: usize) {
        if self.used == self.tokens.len() {
            self.tokens.push(Token::default());
        }
        let token = &mut self.tokens[self.used];
        token.offset_from = from;
        token.offset_to = to;
        token.position = position;
        token.position_length = length;
        token.text.clear();
        if text.is_ascii() {
            token.text.push_str(text);
            token.text.make_ascii_lowercase();
        } else {
            token.text.extend(text.chars().flat_map(char::to_lowercase));
        }
        self.used += 1;
    }

    pub fn as_slice(&self) -> &[Token] {
        &self.tokens[..self.used]
    }
}

pub struct IdentTokenStream<'a> {
    tokens: &'a [Token],
    index: usize,
}

impl Tokenizer for IdentTokenizer {
    type TokenStream<'a> = IdentTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> IdentTokenStream<'a> {
        self.buffer.used = 0;
        tokenize_into(text, &mut self.buffer);
        IdentTokenStream {
            tokens: self.buffer.as_slice(),
            index: usize::MAX,
        }
    }
}

impl TokenStream for IdentTokenStream<'_> {
    fn advance(&mut self) -> bool {
        self.index = self.index.wrapping_add(1);
        self.index < self.tokens.len()
    }

    fn token(&self) -> &Token {
        &self.tokens[self.index]
    }

    fn token_mut(&mut self) -> &mut Token {
        unreachable!("the index never rewrites tokens")
    }
}

/// Appends the tokens of `text`. A whole identifier with several parts is emitted with
/// `position_length` = its part count; parts have `position_length` 1.
pub fn tokenize(text: &str, out: &mut Vec<Token>) {
    let mut buffer = TokenBuffer::default();
    tokenize_into(text, &mut buffer);
    buffer.tokens.truncate(buffer.used);
    out.append(&mut buffer.tokens);
}

fn tokenize_into(text: &str, out: &mut TokenBuffer) {
    let mut position = 0;
    let mut word_start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        let is_word = c.is_alphanumeric() || c == '_';
        match (is_word, word_start) {
            (true, None) => word_start = Some(i),
            (false, Some(start)) => {
                position += emit_word(&text[start..i], start, position, out);
                word_start = None;
            }
            _ => {}
        }
    }
}

/// Emits one identifier's tokens and returns how many positions it used.
fn emit_word(word: &str, offset: usize, position: usize, out: &mut TokenBuffer) -> usize {
    // Most words are plain lower-case: one part, nothing to split.
    if word.len() <= MAX_TOKEN_CHARS
        && word
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    {
        out.push(word, offset, offset + word.len(), position, 1);
        return 1;
    }
    let parts = split_identifier(word);
    if parts.is_empty() {
        return 0;
    }
    let push = |out: &mut TokenBuffer, text: &str, from: usize, to: usize, pos: usize, len| {
        if text.len() <= MAX_TOKEN_CHARS || text.chars().count() <= MAX_TOKEN_CHARS {
            out.push(text, offset + from, offset + to, pos, len);
        }
    };
    if parts.len() > 1 {
        push(
            out,
            word.trim_matches('_'),
            0,
            word.len(),
            position,
            parts.len(),
        );
    }
    for (i, (from, to)) in parts.iter().enumerate() {
        push(out, &word[*from..*to], *from, *to, position + i, 1);
    }
    parts.len()
}

/// Byte ranges of the parts of an identifier: split at `_`, at lower-to-upper case changes
/// (`fooBar`), before the last capital of a capital run followed by lower case (`HTTPServer`)
/// and between letters and digits only where the case also changes.
pub fn split_identifier(word: &str) -> Vec<(usize, usize)> {
    let mut parts = Vec::new();
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut start: Option<usize> = None;
    for (k, &(i, c)) in chars.iter().enumerate() {
        if c == '_' {
            if let Some(s) = start.take() {
                parts.push((s, i));
            }
            continue;
        }
        if let Some(s) = start {
            let prev = chars[k - 1].1;
            let next = chars.get(k + 1).map(|x| x.1);
            let boundary = (prev.is_lowercase() || prev.is_ascii_digit()) && c.is_uppercase()
                || prev.is_uppercase() && c.is_uppercase() && next.is_some_and(char::is_lowercase);
            if boundary {
                parts.push((s, i));
                start = Some(i);
            }
        } else {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        parts.push((s, word.len()));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str) -> Vec<(String, usize)> {
        let mut out = Vec::new();
        tokenize(text, &mut out);
        out.into_iter().map(|t| (t.text, t.position)).collect()
    }

    fn pairs(list: &[(&str, usize)]) -> Vec<(String, usize)> {
        list.iter().map(|(t, p)| (t.to_string(), *p)).collect()
    }

    #[test]
    fn identifiers_yield_the_whole_and_the_parts() {
        assert_eq!(
            texts("fooBar foo_bar FooBar"),
            pairs(&[
                ("foobar", 0),
                ("foo", 0),
                ("bar", 1),
                ("foo_bar", 2),
                ("foo", 2),
                ("bar", 3),
                ("foobar", 4),
                ("foo", 4),
                ("bar", 5)
            ])
        );
    }

    #[test]
    fn acronyms_digits_and_plain_words() {
        assert_eq!(
            texts("HTTPServer utf8 __init__ x"),
            pairs(&[
                ("httpserver", 0),
                ("http", 0),
                ("server", 1),
                ("utf8", 2),
                ("init", 3),
                ("x", 4)
            ])
        );
    }

    #[test]
    fn unicode_words_and_long_blobs() {
        let blob = "a".repeat(100);
        assert_eq!(
            texts(&format!("Größe {blob} ok")),
            pairs(&[("größe", 0), ("ok", 2)])
        );
    }
}
