//! What identifies a pack and what a cursor points at.
//!
//! A packId is a hash of the normalized request (ADR-040 §5.5): the query, include, the scope
//! (paths) and the intent class, never limits, view or cursor, so the same question asked with
//! a bigger budget or another view reuses the same pack. A cursor is a position in one pack,
//! signed with that pack's secret salt: a forged cursor, one from another pack or one from
//! before the pack was rebuilt does not verify.

use crate::args::{ExploreArgs, Intent, Kinds, Route};
use serde::{Deserialize, Serialize};

/// The normalized request a pack answers. Stored with the pack, so a follow-up call may give
/// only the packId.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackKey {
    pub route: Route,
    pub query: String,
    pub paths: Vec<String>,
    pub kinds: Kinds,
    /// Evidence packs are kept apart from plain finds and reads (ADR-038 roles).
    pub evidence: bool,
    /// A region read: which lines, with how much context, within which line budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<Lines>,
}

/// The line ranges a region read asks for (ADR-001 Stage 2), as the pack remembers them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lines {
    pub ranges: Vec<(u32, u32)>,
    pub context: u32,
    pub budget: u32,
}

impl PackKey {
    pub fn new(args: &ExploreArgs, route: Route) -> Self {
        Self {
            route,
            query: args
                .query()
                .map(|q| q.split_whitespace().collect::<Vec<_>>().join(" "))
                .unwrap_or_default(),
            paths: args.paths().iter().map(|p| normalize_path(p)).collect(),
            kinds: args.kinds(),
            evidence: args.intent() == Intent::Evidence,
            lines: args.regions().ok().flatten().map(|ranges| Lines {
                ranges,
                context: args.context_lines(),
                budget: args.max_total_lines(),
            }),
        }
    }

    /// `p` and 16 bytes of BLAKE3 over the key, hex.
    pub fn id(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_default();
        let hash = blake3::hash(json.as_bytes());
        format!("p{}", &hash.to_hex()[..32])
    }

    pub fn role(&self) -> &'static str {
        if self.evidence { "evidence" } else { "result" }
    }
}

/// `./src//a/` as `src/a`: what makes two spellings of a scope one pack. A leading `/` stays,
/// so the host still refuses an absolute path instead of reading a relative one.
fn normalize_path(p: &str) -> String {
    let p = p.trim();
    let parts: Vec<&str> = p
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    let joined = parts.join("/");
    match (p.starts_with('/'), joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_string(),
        (false, false) => joined,
    }
}

/// Where a cursor points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    /// The next page starts at these offsets into the docs and code groups.
    Items { docs: usize, code: usize },
    /// The rest of one item's text, from this character; `full` for its content (a section,
    /// a chunk's lines) rather than its preview.
    Content {
        rank: u32,
        offset: usize,
        full: bool,
    },
}

fn mac(pack_id: &str, salt: &str, payload: &str) -> String {
    let hash = blake3::hash(format!("{salt}\u{1f}{pack_id}\u{1f}{payload}").as_bytes());
    hash.to_hex()[..16].to_string()
}

/// The cursor for `position` in the pack `pack_id` with `salt`.
pub fn sign(pack_id: &str, salt: &str, position: Position) -> String {
    let payload = match position {
        Position::Items { docs, code } => format!("i.{docs}.{code}"),
        Position::Content { rank, offset, full } => {
            format!("c.{rank}.{offset}.{}", if full { "f" } else { "p" })
        }
    };
    let mac = mac(pack_id, salt, &payload);
    format!("{payload}.{mac}")
}

/// The position a cursor points at, if it was signed for this pack.
pub fn verify(pack_id: &str, salt: &str, cursor: &str) -> Result<Position, String> {
    let refused = || {
        "cursor was not issued for this pack (altered, from another query, or from before the \
         pack was rebuilt); repeat the call without cursor"
            .to_string()
    };
    let (payload, given) = cursor.trim().rsplit_once('.').ok_or_else(refused)?;
    if salt.is_empty() || mac(pack_id, salt, payload) != given {
        return Err(refused());
    }
    let parts: Vec<&str> = payload.split('.').collect();
    let number = |s: &str| s.parse::<usize>().map_err(|_| refused());
    match parts.as_slice() {
        ["i", docs, code] => Ok(Position::Items {
            docs: number(docs)?,
            code: number(code)?,
        }),
        ["c", rank, offset, level @ ("f" | "p")] => Ok(Position::Content {
            rank: number(rank)? as u32,
            offset: number(offset)?,
            full: *level == "f",
        }),
        _ => Err(refused()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(json: &str) -> PackKey {
        let args: ExploreArgs = sdk::parse_args(json).unwrap();
        let route = args.route().unwrap();
        PackKey::new(&args, route)
    }

    #[test]
    fn ids_ignore_limits_view_cursor_and_spelling() {
        let base = key(r#"{"query":"parse config","paths":["src"]}"#).id();
        for same in [
            r#"{"query":"  parse   config ","paths":["./src/"]}"#,
            r#"{"query":"parse config","paths":["src"],"limits":{"maxChars":100},"view":"preview"}"#,
            r#"{"query":"parse config","paths":["src"],"intent":"find","packId":"x"}"#,
        ] {
            assert_eq!(key(same).id(), base, "{same}");
        }
        for other in [
            r#"{"query":"parse","paths":["src"]}"#,
            r#"{"query":"parse config"}"#,
            r#"{"query":"parse config","paths":["src"],"include":{"docs":false}}"#,
            r#"{"query":"parse config","paths":["src"],"intent":"evidence"}"#,
        ] {
            assert_ne!(key(other).id(), base, "{other}");
        }
    }

    #[test]
    fn cursors_verify_only_for_their_pack() {
        let at = Position::Items { docs: 3, code: 8 };
        let cursor = sign("p1", "salt", at);
        assert_eq!(verify("p1", "salt", &cursor), Ok(at));
        assert!(verify("p2", "salt", &cursor).is_err(), "foreign pack");
        assert!(verify("p1", "new salt", &cursor).is_err(), "rebuilt pack");
        let forged = cursor.replacen("i.3", "i.4", 1);
        assert!(verify("p1", "salt", &forged).is_err(), "altered offset");
        for junk in ["", "garbage", "i.1.2", ".", "i.x.y.0000000000000000"] {
            assert!(verify("p1", "salt", junk).is_err(), "{junk}");
        }
        let content = Position::Content {
            rank: 4,
            offset: 1200,
            full: true,
        };
        assert_eq!(
            verify("p1", "salt", &sign("p1", "salt", content)),
            Ok(content)
        );
    }
}
