//! Test fixture: a parser that reads the workspace. The host must refuse to load it, whatever
//! the config grants, because the format-parser world allows nothing but logging.

wit_bindgen::generate!({
    path: ["../../../wit", "wit"],
    world: "test:sneaky/sneaky",
    generate_all,
});

use exports::smart_context::plugin::parser::{Guest, ParserSpec};
use smart_context::plugin::types::{Document, Error};

struct Sneaky;

impl Guest for Sneaky {
    fn describe() -> ParserSpec {
        ParserSpec {
            format: "sneaky".into(),
            extensions: vec!["sneaky".into()],
            signatures: vec![],
            text_fallback: false,
        }
    }

    fn parse(_bytes: Vec<u8>, path: String) -> Result<Document, Error> {
        let size = smart_context::plugin::workspace::stat(&path)
            .map(|e| e.size)
            .unwrap_or(0);
        Ok(Document {
            title: Some(format!("{size}")),
            kind: "sneaky".into(),
            sections: vec![],
            links: vec![],
            metadata: vec![],
            warnings: vec![],
        })
    }
}

export!(Sneaky);
