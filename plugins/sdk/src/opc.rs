//! Office Open XML packages (DOCX, XLSX): the relationship parts (`_rels/*.rels`) that say
//! where each part of a package is and what it is.

use quick_xml::events::Event;
use quick_xml::{Reader, XmlVersion};

/// One `<Relationship>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relationship {
    pub id: String,
    /// The last segment of its type URI: `officeDocument`, `worksheet`, `hyperlink`, ...
    pub kind: String,
    /// As written: relative to the source part's folder, or absolute from the package root
    /// (`/xl/workbook.xml`), or an external URL.
    pub target: String,
}

/// The package's main part (`word/document.xml`, `xl/workbook.xml`) as a part name, from the
/// package relationships' officeDocument; None when they do not say.
pub fn main_part(package_rels: &[u8]) -> Option<String> {
    relationships(package_rels)
        .into_iter()
        .find(|r| r.kind == "officeDocument" && !r.target.is_empty())
        .map(|r| r.target.trim_start_matches('/').to_string())
}

/// The relationships of a `.rels` part, in document order; what does not parse is skipped
/// (a damaged part says less, it does not fail the document).
pub fn relationships(xml: &[u8]) -> Vec<Relationship> {
    let text = String::from_utf8_lossy(xml);
    let mut reader = Reader::from_str(&text);
    let mut out = Vec::new();
    loop {
        match reader.read_event() {
            Ok(Event::Start(e) | Event::Empty(e)) if e.local_name().as_ref() == "Relationship" => {
                let mut rel = Relationship {
                    id: String::new(),
                    kind: String::new(),
                    target: String::new(),
                };
                for a in e.attributes().with_checks(false).flatten() {
                    let value = a
                        .normalized_value(XmlVersion::Implicit1_0)
                        .map(|v| v.into_owned())
                        .unwrap_or_else(|_| a.value.clone().into_owned());
                    let key: &str = a.key.as_ref();
                    match key.rsplit_once(':').map_or(key, |(_, name)| name) {
                        "Id" => rel.id = value,
                        "Type" => rel.kind = value.rsplit('/').next().unwrap_or("").to_string(),
                        "Target" => rel.target = value,
                        _ => {}
                    }
                }
                out.push(rel);
            }
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relationships_keep_id_kind_and_target() {
        let xml = br#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/><Relationship Id="rId2" Type="http://x/hyperlink" Target="https://a.b/?q=1&amp;r=2" TargetMode="External"></Relationship></Relationships>"#;
        let rels = relationships(xml);
        assert_eq!(rels.len(), 2);
        assert_eq!(
            (
                rels[0].id.as_str(),
                rels[0].kind.as_str(),
                rels[0].target.as_str()
            ),
            ("rId1", "officeDocument", "xl/workbook.xml")
        );
        assert_eq!(rels[1].target, "https://a.b/?q=1&r=2");
        assert!(relationships(b"<not xml").is_empty());
        assert_eq!(main_part(xml).as_deref(), Some("xl/workbook.xml"));
    }
}
