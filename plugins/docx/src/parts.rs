//! The parts around the body: which part is the body, heading levels of styles, hyperlink
//! targets, comments, footnotes and endnotes, and core properties. A damaged side part loses
//! its information (no heading styles, no comment text), never the document.

use super::xml::{attr, entity, local};
use quick_xml::Reader;
use quick_xml::events::Event;
use sdk::ToolResult;
use sdk::archive::Archive;
use std::collections::HashMap;

/// What the body walk looks up.
#[derive(Default)]
pub struct Context {
    /// Style id -> heading level (1 = top); `Title` is level 1 too.
    pub styles: HashMap<String, u8>,
    /// Relationship id -> target (hyperlink URLs).
    pub links: HashMap<String, String>,
    /// Note id -> (author, text).
    pub comments: HashMap<String, (String, String)>,
    pub footnotes: HashMap<String, (String, String)>,
    pub endnotes: HashMap<String, (String, String)>,
}

/// The body part, from the package relationships (`word/document.xml` when they say nothing).
pub fn main_part(zip: &mut Archive) -> ToolResult<String> {
    let rels = zip.read("_rels/.rels")?;
    Ok(rels
        .as_deref()
        .and_then(sdk::opc::main_part)
        .unwrap_or_else(|| "word/document.xml".to_string()))
}

/// Heading levels by style id: a style named "heading N" (any case) or "Title", or one with an
/// outline level.
pub fn styles(xml: Option<&[u8]>) -> HashMap<String, u8> {
    let mut levels = HashMap::new();
    let Some(xml) = xml else { return levels };
    let text = String::from_utf8_lossy(xml);
    let mut reader = Reader::from_str(&text);
    let mut current: Option<String> = None;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) if local(&e) == "style" => current = attr(&e, "styleId"),
            Ok(Event::Start(e) | Event::Empty(e)) => {
                let Some(id) = current.clone() else { continue };
                let level = match local(&e).as_str() {
                    "name" => attr(&e, "val").and_then(|n| heading_level(&n)),
                    "outlineLvl" => attr(&e, "val")
                        .and_then(|v| v.parse::<u8>().ok())
                        .filter(|l| *l < 9)
                        .map(|l| l + 1),
                    _ => None,
                };
                if let Some(level) = level {
                    levels.entry(id).or_insert(level);
                }
            }
            Ok(Event::End(e)) if e.local_name().as_ref() == "style" => current = None,
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
    }
    levels
}

/// "heading 2" -> 2, "Title" -> 1.
pub fn heading_level(name: &str) -> Option<u8> {
    let lower = name.trim().to_ascii_lowercase();
    if lower == "title" {
        return Some(1);
    }
    lower
        .strip_prefix("heading")
        .map(str::trim)
        .and_then(|n| n.parse::<u8>().ok())
        .filter(|l| (1..=9).contains(l))
}

/// Relationship id -> target.
pub fn relationships(xml: Option<&[u8]>) -> HashMap<String, String> {
    xml.map(sdk::opc::relationships)
        .unwrap_or_default()
        .into_iter()
        .map(|r| (r.id, r.target))
        .collect()
}

/// Comments, footnotes or endnotes (`element` names the note element): id -> (author, text).
pub fn notes(xml: Option<&[u8]>, element: &str) -> HashMap<String, (String, String)> {
    let mut map = HashMap::new();
    let Some(xml) = xml else { return map };
    let text = String::from_utf8_lossy(xml);
    let mut reader = Reader::from_str(&text);
    let mut open: Option<(String, String, String)> = None;
    let mut in_text = false;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) if local(&e) == element => {
                let id = attr(&e, "id").unwrap_or_default();
                let author = attr(&e, "author").unwrap_or_default();
                open = Some((id, author, String::new()));
            }
            Ok(Event::Start(e)) if local(&e) == "t" => in_text = true,
            Ok(Event::End(e)) => match e.local_name().as_ref() {
                "t" => in_text = false,
                "p" => {
                    if let Some((_, _, body)) = open.as_mut()
                        && !body.is_empty()
                        && !body.ends_with(' ')
                    {
                        body.push(' ');
                    }
                }
                name if name == element => {
                    if let Some((id, author, body)) = open.take() {
                        map.insert(id, (author, body.trim().to_string()));
                    }
                }
                _ => {}
            },
            Ok(Event::Text(t)) if in_text => {
                if let Some((_, _, body)) = open.as_mut() {
                    body.push_str(&t.xml10_content());
                }
            }
            Ok(Event::GeneralRef(r)) if in_text => {
                if let Some((_, _, body)) = open.as_mut() {
                    body.push_str(&entity(&r));
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
    }
    map
}

/// Title, subject, creator, keywords, description and dates from docProps/core.xml.
pub fn core_properties(xml: Option<&[u8]>) -> Vec<(String, String)> {
    let mut props = Vec::new();
    let Some(xml) = xml else { return props };
    let text = String::from_utf8_lossy(xml);
    let mut reader = Reader::from_str(&text);
    let mut open: Option<String> = None;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                let name = local(&e);
                open = [
                    "title",
                    "subject",
                    "creator",
                    "keywords",
                    "description",
                    "created",
                    "modified",
                ]
                .contains(&name.as_str())
                .then_some(name);
            }
            Ok(Event::Text(t)) => {
                if let Some(name) = open.take() {
                    let value = t.xml10_content().trim().to_string();
                    if !value.is_empty() {
                        props.push((name, value));
                    }
                }
            }
            Ok(Event::End(_)) => open = None,
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
    }
    props
}
