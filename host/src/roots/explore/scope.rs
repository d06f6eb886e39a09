//! What a follow-up's packId and cursor say about the roots they continue in, and the
//! packId and cursor each of those roots issued.
//!
//! A qualified packId is `<id>~<root>[,<root>...]`, one group a pack id, groups joined by
//! `+` (`<id>~api+<id2>~web` when the roots read different paths); a qualified cursor is
//! `<root>:<cursor>` parts joined by `+`, whether bare or under `items`/`content`.

use super::super::Root;
use crate::error::{HostError, HostResult, codes};
use serde_json::{Map, Value};

/// What a call's packId and cursor name.
pub(super) struct Scope {
    pack: Option<Pack>,
    cursor: Option<Cursor>,
}

/// A packId: as a one-root answer gives it, or each root's own.
enum Pack {
    Plain(String),
    Rooted(Vec<(String, String)>),
}

/// A cursor split by root, in the shape the call gave it (explore takes a bare string or an
/// object with `items`/`content` or `itemsCursor`/`contentCursor`).
enum Cursor {
    Bare(Vec<(String, String)>),
    Fields(Vec<(String, Vec<(String, String)>)>),
    /// Not root-qualified, or not a cursor at all: passed on as given (explore judges it).
    AsGiven,
}

/// `<root>:<cursor>` parts, or `None` when a part names no root.
type Parts = Option<Vec<(String, String)>>;

impl Scope {
    /// Reads the call's packId and cursor; refused when they name a root `view` lacks, or
    /// when a cursor names no root and there is more than one it could belong to.
    pub(super) fn read(
        args: &Map<String, Value>,
        view: &[Root],
        one_root: bool,
    ) -> HostResult<Scope> {
        let served = |name: &str| view.iter().any(|r| r.name == name);
        let pack = match args.get("packId") {
            Some(Value::String(id)) if id.contains('~') => {
                let mut rooted = Vec::new();
                for group in id.split('+') {
                    let (plain, names) = group.split_once('~').unwrap_or((group, ""));
                    for name in names.split(',') {
                        if !served(name) {
                            return Err(not_served("packId", name, view));
                        }
                        rooted.push((name.to_string(), plain.to_string()));
                    }
                }
                Some(Pack::Rooted(rooted))
            }
            Some(Value::String(id)) => Some(Pack::Plain(id.clone())),
            _ => None,
        };
        let parts = |cursor: &str| -> HostResult<Parts> {
            let mut parts = Vec::new();
            for part in cursor.split('+') {
                let Some((root, rest)) = part.trim().split_once(':') else {
                    return Ok(None);
                };
                if !served(root) {
                    return Err(not_served("cursor", root, view));
                }
                parts.push((root.to_string(), rest.to_string()));
            }
            Ok(Some(parts))
        };
        let cursor = match args.get("cursor") {
            None | Some(Value::Null) => None,
            Some(Value::String(c)) => Some(match parts(c)? {
                Some(p) => Cursor::Bare(p),
                None => Cursor::AsGiven,
            }),
            Some(Value::Object(fields)) => {
                let mut split = Vec::new();
                let mut qualified = true;
                for (key, value) in fields {
                    match value {
                        Value::String(c) => match parts(c)? {
                            Some(p) => split.push((key.clone(), p)),
                            None => qualified = false,
                        },
                        Value::Null => {}
                        // explore refuses it, and says why.
                        _ => qualified = false,
                    }
                }
                Some(if qualified && !split.is_empty() {
                    Cursor::Fields(split)
                } else {
                    Cursor::AsGiven
                })
            }
            Some(_) => Some(Cursor::AsGiven),
        };
        if matches!(cursor, Some(Cursor::AsGiven)) && !one_root && view.len() > 1 {
            return Err(HostError::new(
                codes::INVALID_ARGS,
                "cursor must be next.itemsCursor or next.contentCursor as an answer gave it: \
                 with several roots each part names its root (`api:...`)",
            )
            .suggest("pass the cursor unchanged, under `items` or `content`, or name the root"));
        }
        Ok(Scope { pack, cursor })
    }

    /// The roots the packId or cursor continue in (the cursor's when there is one).
    pub(super) fn roots(&self) -> Option<Vec<String>> {
        let mut names: Vec<String> = match (&self.cursor, &self.pack) {
            (Some(Cursor::Bare(parts)), _) => parts.iter().map(|(r, _)| r.clone()).collect(),
            (Some(Cursor::Fields(fields)), _) => fields
                .iter()
                .flat_map(|(_, parts)| parts.iter().map(|(r, _)| r.clone()))
                .collect(),
            (_, Some(Pack::Rooted(ids))) => ids.iter().map(|(r, _)| r.clone()).collect(),
            _ => return None,
        };
        let mut seen = std::collections::HashSet::new();
        names.retain(|n| seen.insert(n.clone()));
        Some(names)
    }

    /// A new request rather than the continuation of a pack.
    pub(super) fn is_fresh(&self) -> bool {
        self.pack.is_none() && self.cursor.is_none()
    }

    /// The arguments `root` gets: the packId and cursor as that root issued them.
    pub(super) fn args_for(&self, args: &Map<String, Value>, root: &str) -> Map<String, Value> {
        let mut own = args.clone();
        let part = |parts: &[(String, String)]| {
            parts
                .iter()
                .rev()
                .find(|(r, _)| r == root)
                .map(|(_, c)| Value::String(c.clone()))
        };
        match &self.pack {
            Some(Pack::Plain(id)) => {
                own.insert("packId".into(), Value::String(id.clone()));
            }
            Some(Pack::Rooted(ids)) => match part(ids) {
                Some(id) => {
                    own.insert("packId".into(), id);
                }
                None => {
                    own.remove("packId");
                }
            },
            None => {}
        }
        match &self.cursor {
            Some(Cursor::Bare(parts)) => {
                if let Some(c) = part(parts) {
                    own.insert("cursor".into(), c);
                }
            }
            Some(Cursor::Fields(fields)) => {
                let cursor: Map<String, Value> = fields
                    .iter()
                    .filter_map(|(key, parts)| Some((key.clone(), part(parts)?)))
                    .collect();
                own.insert("cursor".into(), Value::Object(cursor));
            }
            Some(Cursor::AsGiven) | None => {}
        }
        own
    }
}

fn not_served(what: &str, name: &str, view: &[Root]) -> HostError {
    let names: Vec<&str> = view.iter().map(|r| r.name.as_str()).collect();
    HostError::new(
        codes::INVALID_ARGS,
        format!("the {what} names root {name:?}, which this server does not serve"),
    )
    .suggest(format!(
        "pass the packId and cursor an answer gave, unchanged; roots: {}",
        names.join(", ")
    ))
}
