//! The little XML the parts need: attributes by local name, entity references as text, and
//! MALFORMED for XML that does not parse.

use quick_xml::XmlVersion;
use quick_xml::events::{BytesRef, BytesStart};
use sdk::{ToolError, codes};

/// The value of the attribute whose local name (after any prefix) is `local`.
pub fn attr(e: &BytesStart, local: &str) -> Option<String> {
    e.attributes().with_checks(false).flatten().find_map(|a| {
        let key: &str = a.key.as_ref();
        let name = key.rsplit_once(':').map_or(key, |(_, n)| n);
        (name == local).then(|| {
            a.normalized_value(XmlVersion::Implicit1_0)
                .map(|v| v.into_owned())
                .unwrap_or_else(|_| a.value.clone().into_owned())
        })
    })
}

/// The element's local name (`p` for `w:p`).
pub fn local(e: &BytesStart) -> String {
    let name = e.local_name();
    let name: &str = name.as_ref();
    name.to_string()
}

/// The text an entity or character reference stands for.
pub fn entity(r: &BytesRef) -> String {
    if let Ok(Some(c)) = r.resolve_char_ref() {
        return c.to_string();
    }
    let name: &str = r;
    match name {
        "amp" => "&",
        "lt" => "<",
        "gt" => ">",
        "quot" => "\"",
        "apos" => "'",
        _ => "",
    }
    .to_string()
}

pub fn malformed(part: &str, err: impl std::fmt::Display) -> ToolError {
    ToolError::new(
        codes::MALFORMED,
        format!("this docx file is damaged: {part} is not valid XML ({err})"),
    )
    .suggest("open and re-save it in Word or LibreOffice")
}
