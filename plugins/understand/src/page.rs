//! Cursors over understand's lists: an answer shows `limit` callers, callees, dependencies,
//! definitions, hot spots and top files; when any list holds more, `next.cursor` asks for the
//! following items of every list, about the same target, without resolving the goal again.
//!
//! A cursor is self-contained (target, depth, what to include, where the page starts), so it
//! works with no other argument. It is not a secret and needs no seal: editing one only asks
//! for another page of what any call could ask for.

use crate::target::Target;
use std::cell::Cell;

/// The cursor format's version, its first field.
const VERSION: &str = "u1";

/// Where one page of every list starts and how long it is.
#[derive(Debug)]
pub struct Page {
    pub offset: u32,
    pub limit: u32,
    /// Some list was cut at the end of this page.
    more: Cell<bool>,
}

impl Page {
    pub fn new(offset: u32, limit: u32) -> Self {
        Self {
            offset,
            limit,
            more: Cell::new(false),
        }
    }

    /// Items to ask the host for so that this page is whole and a further item shows whether
    /// another page exists.
    pub fn want(&self) -> u32 {
        self.offset + self.limit + 1
    }

    /// This page of `items` (which start at the list's first item), noting when more follow.
    pub fn take<T>(&self, items: Vec<T>) -> Vec<T> {
        let end = (self.offset + self.limit) as usize;
        if items.len() > end {
            self.more.set(true);
        }
        items
            .into_iter()
            .skip(self.offset as usize)
            .take(self.limit as usize)
            .collect()
    }

    /// Records that a list has more than this page shows (the host said so).
    pub fn note_more(&self) {
        self.more.set(true);
    }

    pub fn has_more(&self) -> bool {
        self.more.get()
    }

    pub fn reset(&self) {
        self.more.set(false);
    }
}

/// What a cursor carries: the target and the plan it was made with, and the next page.
#[derive(Debug, Clone, PartialEq)]
pub struct Cursor {
    pub target: Target,
    /// The depth asked for (1-3), before any expansion of a central target.
    pub depth: u32,
    pub call_graph: bool,
    pub hot_spots: bool,
    pub page_rank: bool,
    pub dependencies: bool,
    pub offset: u32,
    pub limit: u32,
}

impl Cursor {
    pub fn encode(&self) -> String {
        let flags: String = [
            (self.call_graph, 'c'),
            (self.hot_spots, 'h'),
            (self.page_rank, 'p'),
            (self.dependencies, 'd'),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, c)| *c)
        .collect();
        let (kind, path, symbol) = match &self.target {
            Target::Symbol { path, symbol } => ("symbol", path.as_str(), symbol.as_str()),
            Target::File { path } => ("file", path.as_str(), ""),
            Target::Module { path } => ("module", path.as_str(), ""),
            Target::Project => ("project", "", ""),
        };
        [
            VERSION,
            &self.offset.to_string(),
            &self.limit.to_string(),
            &self.depth.to_string(),
            &flags,
            kind,
            &escape(path),
            &escape(symbol),
        ]
        .join("|")
    }

    /// The cursor, or what is wrong with it (for INVALID_ARGS).
    pub fn decode(text: &str) -> Result<Self, String> {
        let fields: Vec<&str> = text.split('|').collect();
        let [version, offset, limit, depth, flags, kind, path, symbol] = fields[..] else {
            return Err("not a cursor understand handed out".into());
        };
        if version != VERSION {
            return Err(format!("a cursor of format {version}, expected {VERSION}"));
        }
        let number = |s: &str, what: &str| {
            s.parse::<u32>()
                .map_err(|_| format!("its {what} is not a number"))
        };
        let offset = number(offset, "offset")?;
        let limit = number(limit, "page size")?;
        let depth = number(depth, "depth")?;
        if !(1..=100).contains(&limit) || !(1..=3).contains(&depth) || offset > 1_000_000 {
            return Err("its page size, depth or offset is out of range".into());
        }
        if let Some(c) = flags.chars().find(|c| !"chpd".contains(*c)) {
            return Err(format!("unknown flag `{c}`"));
        }
        let path = unescape(path)?;
        let symbol = unescape(symbol)?;
        let target = match kind {
            "symbol" if !path.is_empty() && !symbol.is_empty() => Target::Symbol { path, symbol },
            "file" if !path.is_empty() => Target::File { path },
            "module" if !path.is_empty() => Target::Module { path },
            "project" => Target::Project,
            _ => return Err(format!("its target `{kind}` is incomplete or unknown")),
        };
        Ok(Self {
            target,
            depth,
            call_graph: flags.contains('c'),
            hot_spots: flags.contains('h'),
            page_rank: flags.contains('p'),
            dependencies: flags.contains('d'),
            offset,
            limit,
        })
    }
}

/// `%` and the separator `|` as `%25` and `%7C`, so any path fits in a field.
fn escape(s: &str) -> String {
    s.replace('%', "%25").replace('|', "%7C")
}

fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        match rest.get(at..at + 3) {
            Some("%25") => out.push('%'),
            Some("%7C") => out.push('|'),
            _ => return Err("a field has a stray `%`".into()),
        }
        rest = &rest[at + 3..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cursor(target: Target) -> Cursor {
        Cursor {
            target,
            depth: 2,
            call_graph: true,
            hot_spots: false,
            page_rank: true,
            dependencies: true,
            offset: 10,
            limit: 10,
        }
    }

    #[test]
    fn cursors_round_trip_any_target_and_path() {
        for target in [
            Target::Project,
            Target::Module { path: "src".into() },
            Target::File {
                path: "a|b%7C/c%.rs".into(),
            },
            Target::Symbol {
                path: "src/lib.rs".into(),
                symbol: "Runtime.call".into(),
            },
        ] {
            let c = cursor(target);
            assert_eq!(Cursor::decode(&c.encode()).unwrap(), c);
        }
    }

    #[test]
    fn damaged_cursors_are_refused_with_a_reason() {
        let good = cursor(Target::Project).encode();
        assert!(Cursor::decode(&good).is_ok());
        for bad in [
            "",
            "i.1.2.mac",
            &good.replacen("u1", "u9", 1),
            "u1|x|10|2|c|project||",
            "u1|0|0|2|c|project||",
            "u1|0|10|7|c|project||",
            "u1|0|10|2|z|project||",
            "u1|0|10|2|c|symbol|a.rs|",
            "u1|0|10|2|c|file|a%2.rs|",
        ] {
            assert!(Cursor::decode(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_page_takes_its_slice_and_knows_when_more_follow() {
        let page = Page::new(2, 2);
        assert_eq!(page.want(), 5);
        assert_eq!(page.take(vec![1, 2, 3, 4]), vec![3, 4]);
        assert!(!page.has_more());
        assert_eq!(page.take(vec![1, 2, 3, 4, 5]), vec![3, 4]);
        assert!(page.has_more());
        page.reset();
        assert_eq!(page.take(vec![1]), Vec::<i32>::new());
        assert!(!page.has_more());
    }
}
