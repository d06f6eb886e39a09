//! Test fixture: a third-party format parser that never returns, for the tests that a parser
//! which ran out of time on a content is not run on it again, and is named as the culprit.

wit_bindgen::generate!({
    path: "../../../wit",
    world: "format-parser",
});

use exports::smart_context::plugin::parser::{Guest, ParserSpec};
use smart_context::plugin::types::{Document, Error};

struct Stall;

impl Guest for Stall {
    fn describe() -> ParserSpec {
        ParserSpec {
            format: "stall".to_string(),
            extensions: vec!["stall".to_string()],
            signatures: Vec::new(),
            text_fallback: false,
        }
    }

    fn parse(_bytes: Vec<u8>, _path: String) -> Result<Document, Error> {
        let mut n: u64 = 0;
        loop {
            n = std::hint::black_box(n.wrapping_add(1));
        }
    }
}

export!(Stall);
