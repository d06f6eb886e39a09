//! Reading damaged PDFs the way viewers do, where lopdf gives up silently: a content stream
//! is decoded to its end even past an operator that does not parse (lopdf's `Content::decode`
//! stops at the first one and drops the rest of the page), and a stream without a valid
//! `/Length` is read up to its `endstream` (lopdf leaves it empty). Both faults are common in
//! PDFs written by hand-rolled generators, and poppler and pdf.js read such files.

use lopdf::content::{Content, Operation};
use lopdf::{Object, Stream};

/// A content stream's operations: lopdf's strict decode when the stream parses whole; else
/// the stream repaired (operators inside arrays dropped, a bare sign read as 0) and each
/// operation decoded on its own, an operation that still does not parse skipped and counted.
pub fn operations(bytes: &[u8]) -> (Vec<Operation>, usize) {
    if let Ok(content) = Content::decode_strict(bytes) {
        return (content.operations, 0);
    }
    let mut out = Vec::new();
    let mut failed = 0;
    for piece in repaired_operations(bytes) {
        match Content::decode_strict(&piece) {
            Ok(content) => out.extend(content.operations),
            Err(_) => failed += 1,
        }
    }
    (out, failed)
}

/// Where one lexical token of a content stream ends, and what it is.
#[derive(Debug, PartialEq)]
pub(crate) enum Token {
    Space,
    Comment,
    /// A string, a name, a number or a delimiter: an operand's part.
    Operand,
    OpenArray,
    CloseArray,
    OpenDict,
    CloseDict,
    /// A bare word that is not `true`, `false` or `null`.
    Operator,
    /// A sign or point with no digits (`-`, `+.`): a number viewers read as 0.
    BareSign,
}

fn is_space(b: u8) -> bool {
    matches!(b, b'\0' | b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

/// The token at the start of `s` and its length (at least 1; it may run past the end of an
/// unterminated string).
fn token(s: &[u8]) -> (Token, usize) {
    let run = |from: usize, keep: &dyn Fn(u8) -> bool| {
        from + s[from..].iter().take_while(|&&b| keep(b)).count()
    };
    match s[0] {
        b if is_space(b) => (Token::Space, run(1, &is_space)),
        b'%' => (Token::Comment, run(1, &|b| b != b'\n' && b != b'\r')),
        b'(' => {
            let (mut depth, mut i) = (1usize, 1);
            while i < s.len() && depth > 0 {
                match s[i] {
                    b'\\' => i += 1,
                    b'(' => depth += 1,
                    b')' => depth -= 1,
                    _ => {}
                }
                i += 1;
            }
            (Token::Operand, i.min(s.len()))
        }
        b'<' if s.get(1) == Some(&b'<') => (Token::OpenDict, 2),
        b'>' if s.get(1) == Some(&b'>') => (Token::CloseDict, 2),
        b'<' => (Token::Operand, run(1, &|b| b != b'>') + 1),
        b'[' => (Token::OpenArray, 1),
        b']' => (Token::CloseArray, 1),
        b'/' => (
            Token::Operand,
            run(1, &|b| !is_space(b) && !is_delimiter(b)),
        ),
        b if is_delimiter(b) => (Token::Operand, 1),
        _ => {
            let end = run(0, &|b| !is_space(b) && !is_delimiter(b));
            let word = &s[..end];
            let numeric = word
                .iter()
                .all(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.'));
            let kind = if numeric && !word.iter().any(u8::is_ascii_digit) {
                Token::BareSign
            } else if numeric || matches!(word, b"true" | b"false" | b"null") {
                Token::Operand
            } else {
                Token::Operator
            };
            (kind, end)
        }
    }
}

/// The tokens of `data` with their text, in order; the text left can be skipped over (an
/// inline image's binary data).
pub(crate) struct Tokens<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Tokens<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Self {
        Tokens { data, at: 0 }
    }

    /// What has not been read yet.
    fn rest(&self) -> &'a [u8] {
        &self.data[self.at..]
    }

    /// Moves past `n` bytes of what is left, unread.
    fn pass(&mut self, n: usize) {
        self.at = (self.at + n).min(self.data.len());
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = (Token, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.rest();
        if rest.is_empty() {
            return None;
        }
        let (kind, len) = token(rest);
        let len = len.clamp(1, rest.len());
        self.at += len;
        Some((kind, &rest[..len]))
    }
}

/// The stream cut into operations (operands and their operator), each repaired: an operator
/// inside an array is dropped (`[(a) 0 Tc (b)] TJ`), a bare sign becomes `0`. Inline image
/// data (`ID` to `EI`) is kept whole with its operation.
fn repaired_operations(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut piece: Vec<u8> = Vec::new();
    let mut depth = 0usize;
    let mut tokens = Tokens::new(bytes);
    while let Some((kind, text)) = tokens.next() {
        match kind {
            Token::Comment => {}
            Token::OpenArray | Token::OpenDict => {
                depth += 1;
                piece.extend_from_slice(text);
            }
            Token::CloseArray | Token::CloseDict => {
                depth = depth.saturating_sub(1);
                piece.extend_from_slice(text);
            }
            Token::BareSign => piece.push(b'0'),
            Token::Operator if depth > 0 => piece.push(b' '),
            // An inline image's keys and values run from `BI` to `ID`: one operation.
            Token::Operator if text == b"BI" => piece.extend_from_slice(text),
            Token::Operator => {
                piece.extend_from_slice(text);
                if text == b"ID" {
                    // Binary image data up to white space, `EI`, and white space or the end.
                    let data = tokens.rest();
                    let end = (0..data.len().saturating_sub(2))
                        .find(|&i| {
                            is_space(data[i])
                                && &data[i + 1..i + 3] == b"EI"
                                && data.get(i + 3).is_none_or(|&b| is_space(b))
                        })
                        .map_or(data.len(), |i| i + 3);
                    piece.extend_from_slice(&data[..end]);
                    tokens.pass(end);
                }
                piece.push(b'\n');
                // An operation's words with no operator before the end are not one.
                out.push(std::mem::take(&mut piece));
                depth = 0;
            }
            Token::Space | Token::Operand => piece.extend_from_slice(text),
        }
    }
    out
}

/// Streams whose `/Length` is missing or wrong, left empty by lopdf, read from `bytes` (the
/// file) up to their `endstream` keyword; at most `limit` bytes each. Returns how many were
/// read. Encrypted files are left alone: their raw bytes are ciphertext.
pub fn recover_streams(pdf: &mut lopdf::Document, bytes: &[u8], limit: usize) -> usize {
    if pdf.was_encrypted() || pdf.is_encrypted() {
        return 0;
    }
    let mut recovered = 0;
    // Bytes scanned for `endstream` in all: a file of many unterminated streams must not
    // make each scan to the end of the file.
    let mut budget = bytes.len().saturating_mul(2);
    for object in pdf.objects.values_mut() {
        let Object::Stream(stream) = object else {
            continue;
        };
        if let Some(content) = unread_content(stream, bytes, limit, &mut budget) {
            stream.set_content(content);
            recovered += 1;
        }
    }
    recovered
}

/// A stream's data up to `endstream`, when lopdf left it unread (no content, a start
/// position, and a `/Length` that is missing or does not end at `endstream`); the bytes
/// scanned are taken from `budget`.
fn unread_content(
    stream: &Stream,
    bytes: &[u8],
    limit: usize,
    budget: &mut usize,
) -> Option<Vec<u8>> {
    let start = stream
        .start_position
        .filter(|_| stream.content.is_empty())?;
    let data = bytes.get(start..)?;
    let data = &data[..data.len().min(limit.saturating_add(16)).min(*budget)];
    let found = data.windows(9).position(|w| w == b"endstream");
    *budget -= found.map_or(data.len(), |end| end + 9).min(*budget);
    let end = found?;
    let mut content = &data[..end];
    // The end-of-line before `endstream` is not data.
    if let Some(rest) = content.strip_suffix(b"\r\n") {
        content = rest;
    } else if let Some(rest) = content
        .strip_suffix(b"\n")
        .or_else(|| content.strip_suffix(b"\r"))
    {
        content = rest;
    }
    (!content.is_empty() && content.len() <= limit).then(|| content.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(ops: &[Operation]) -> Vec<String> {
        ops.iter()
            .filter(|op| op.operator == "TJ" || op.operator == "Tj")
            .flat_map(|op| op.operands.iter())
            .flat_map(|o| match o {
                Object::Array(items) => items.clone(),
                other => vec![other.clone()],
            })
            .filter_map(|o| {
                o.as_str()
                    .ok()
                    .map(|s| String::from_utf8_lossy(s).into_owned())
            })
            .collect()
    }

    #[test]
    fn a_clean_stream_is_lopdf_s_decode() {
        let bytes = b"BT /F1 12 Tf (Hello) Tj ET";
        let (ops, failed) = operations(bytes);
        assert_eq!(failed, 0);
        let operators =
            |ops: &[Operation]| ops.iter().map(|o| o.operator.clone()).collect::<Vec<_>>();
        assert_eq!(operators(&ops), ["BT", "Tf", "Tj", "ET"]);
        assert_eq!(shown(&ops), ["Hello"]);
    }

    #[test]
    fn operators_inside_arrays_and_bare_signs_do_not_end_the_page() {
        // Both parse with lopdf's decode only up to the damage: the text after it was lost.
        let in_array = b"BT /F7 10 Tf [(Grandes) 0.0 Tc -250.0 (Clientes,) 0.0 Tc] TJ ET\n\
                         BT (after) Tj ET";
        assert!(shown(&Content::decode(in_array).unwrap().operations).is_empty());
        let (ops, failed) = operations(in_array);
        assert_eq!(failed, 0);
        assert_eq!(shown(&ops), ["Grandes", "Clientes,", "after"]);
        let (ops, _) = operations(b"BT [(v)-(e)-4(l)]TJ ET");
        assert_eq!(shown(&ops), ["v", "e", "l"]);
    }

    #[test]
    fn an_operation_that_still_fails_costs_itself_only() {
        let bytes = b"BT (one) Tj >> Tj (two) Tj ET";
        let (ops, failed) = operations(bytes);
        assert_eq!(shown(&ops), ["one", "two"]);
        assert!(failed >= 1);
    }

    #[test]
    fn inline_image_data_stays_with_its_operation() {
        let bytes =
            b"BT (a) Tj ET BI /W 2 /H 1 /BPC 8 /CS /G ID \x00] EI\nBT 0 Tc [(b) 1 Tw] TJ ET";
        let (ops, _) = operations(bytes);
        assert_eq!(shown(&ops), ["a", "b"]);
        assert!(ops.iter().any(|op| op.operator == "BI"));
    }

    #[test]
    fn a_stream_without_length_is_read_to_endstream() {
        let file = b"%PDF-1.4\n1 0 obj\n<< >>\nstream\nBT (x) Tj ET\nendstream\nendobj\n";
        let start = file.windows(7).position(|w| w == b"stream\n").unwrap() + 7;
        let stream = Stream::with_position(lopdf::Dictionary::new(), start);
        let mut budget = usize::MAX;
        assert_eq!(
            unread_content(&stream, file, 1 << 20, &mut budget).as_deref(),
            Some(&b"BT (x) Tj ET"[..])
        );
        assert_eq!(usize::MAX - budget, 13 + 9, "scanned up to `endstream`");
        let mut budget = usize::MAX;
        assert_eq!(
            unread_content(&stream, file, 4, &mut budget),
            None,
            "over the limit"
        );
        let read = Stream::new(lopdf::Dictionary::new(), b"data".to_vec());
        assert_eq!(unread_content(&read, file, 1 << 20, &mut budget), None);
        let mut spent = 5;
        assert_eq!(
            unread_content(&stream, file, 1 << 20, &mut spent),
            None,
            "the scans' budget spent"
        );
        assert_eq!(spent, 0);
    }
}
