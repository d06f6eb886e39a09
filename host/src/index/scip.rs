//! What a SCIP index (`index.scip`) says about the project's references: written by a
//! compiler-grade indexer (scip-python, scip-typescript, `rust-analyzer scip`, scip-java,
//! scip-go), it knows which definition each name at each position means. The call graph
//! takes a call's target from it where it describes the caller's file as that file is now
//! (see [`ScipIndex::written_ms`]); whether a site is a call stays the host's own facts.
//!
//! The file is repository input like any other: read without following links, capped in
//! size, parsed by the `scip` crate's protobuf code (no unsafe, bounded recursion), and only
//! ever used to choose among the project's own definitions of the name a call site names.

use scip::types::{Index as ScipProto, Occurrence, SymbolRole, descriptor::Suffix};
use std::collections::HashMap;
use std::sync::Arc;

/// Where the index is looked for, relative to the root: where every SCIP indexer writes it.
pub const SCIP_FILE: &str = "index.scip";

/// The largest index read (a larger one is reported and left alone).
pub const MAX_SCIP_BYTES: u64 = 512 << 20;

/// One symbol the index references: its name, the type holding it, and where the project
/// defines it (none for a library's or the language's own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub name: String,
    pub container: Option<String>,
    /// (path, 1-based line of the defining name).
    pub definition: Option<(String, u32)>,
}

/// A read SCIP index: per project file, the symbols named on each line.
#[derive(Debug, Default)]
pub struct ScipIndex {
    /// When the file was last modified (ms since the epoch): a source file modified later
    /// is not what the index describes.
    pub written_ms: u64,
    /// The BLAKE3 of the file's bytes: the graphs built from it are rebuilt when it changes.
    pub hash: String,
    /// The indexer, as its metadata names it (`scip-python 0.6.0`).
    pub tool: String,
    /// Per document path: (1-based line, target) of every reference, by line.
    references: HashMap<String, Vec<(u32, u32)>>,
    targets: Vec<Target>,
}

impl ScipIndex {
    /// Parses the bytes of an index file modified at `written_ms`.
    pub fn parse(bytes: &[u8], written_ms: u64) -> anyhow::Result<Self> {
        use protobuf::Message;
        let proto = ScipProto::parse_from_bytes(bytes)
            .map_err(|e| anyhow::anyhow!("{SCIP_FILE} is not a SCIP index: {e}"))?;
        let tool = proto
            .metadata
            .as_ref()
            .and_then(|m| m.tool_info.as_ref())
            .map(|t| format!("{} {}", t.name, t.version).trim().to_string())
            .unwrap_or_default();
        let mut out = ScipIndex {
            written_ms,
            hash: blake3::hash(bytes).to_hex().to_string(),
            tool,
            ..Default::default()
        };
        // Symbols by their string (a local's qualified by its document: `local 3` is per file).
        let mut interned: HashMap<String, u32> = HashMap::new();
        let mut definitions: Vec<(u32, String, u32)> = Vec::new();
        for doc in &proto.documents {
            let Some(path) = normalized(&doc.relative_path) else {
                continue;
            };
            let mut refs = Vec::new();
            for occ in &doc.occurrences {
                let Some(line) = start_line(occ) else {
                    continue;
                };
                if occ.symbol.is_empty() {
                    continue;
                }
                let key = if scip::symbol::is_local_symbol(&occ.symbol) {
                    format!("{path}\0{}", occ.symbol)
                } else {
                    occ.symbol.clone()
                };
                let id = match interned.get(&key) {
                    Some(&id) => id,
                    None => {
                        let Some(target) = target_of(&occ.symbol) else {
                            continue;
                        };
                        let id = out.targets.len() as u32;
                        out.targets.push(target);
                        interned.insert(key, id);
                        id
                    }
                };
                if occ.symbol_roles & SymbolRole::Definition as i32 != 0 {
                    definitions.push((id, path.clone(), line));
                } else {
                    refs.push((line, id));
                }
            }
            refs.sort_unstable();
            refs.dedup();
            out.references.entry(path).or_default().extend(refs);
        }
        // The first definition stands (a forward declaration, a `.d.ts` beside its source).
        for (id, path, line) in definitions {
            let target = &mut out.targets[id as usize];
            if target.definition.is_none() {
                target.definition = Some((path, line));
            }
        }
        for refs in out.references.values_mut() {
            refs.sort_unstable();
        }
        Ok(out)
    }

    /// Whether the index has a document for `path`.
    pub fn describes(&self, path: &str) -> bool {
        self.references.contains_key(path)
    }

    /// The symbols named `name` on `line` of `path`, or None when the index names no such
    /// symbol there (then it has nothing to say about that site).
    pub fn named_at(&self, path: &str, line: u32, name: &str) -> Option<Vec<&Target>> {
        let refs = self.references.get(path)?;
        let first = refs.partition_point(|&(l, _)| l < line);
        let found: Vec<&Target> = refs[first..]
            .iter()
            .take_while(|&&(l, _)| l == line)
            .map(|&(_, id)| &self.targets[id as usize])
            .filter(|t| t.name == name)
            .collect();
        (!found.is_empty()).then_some(found)
    }

    /// Documents and references held, for status and logs.
    pub fn size(&self) -> (usize, usize) {
        (
            self.references.len(),
            self.references.values().map(Vec::len).sum(),
        )
    }
}

/// A document's path as the catalogue writes it, or None for one outside the root.
fn normalized(path: &str) -> Option<String> {
    let path = path.trim_start_matches("./").replace('\\', "/");
    let escapes = path.starts_with('/') || path.split('/').any(|s| s == "..");
    (!path.is_empty() && !escapes).then_some(path)
}

/// The 1-based line an occurrence starts on: from the typed range, or the older
/// `[line, start, (end line,) end]` encoding.
fn start_line(occ: &Occurrence) -> Option<u32> {
    use scip::types::occurrence::Typed_range;
    let line = match &occ.typed_range {
        Some(Typed_range::SingleLineRange(r)) => r.line,
        Some(Typed_range::MultiLineRange(r)) => r.start_line,
        Some(_) => return None,
        None => *occ.range.first()?,
    };
    u32::try_from(line).ok()?.checked_add(1)
}

/// The name a call site would write for `symbol` and the type it belongs to: the last
/// descriptor (a constructor is written as its type's name), and the type before it.
fn target_of(symbol: &str) -> Option<Target> {
    let parsed = scip::symbol::parse_symbol(symbol).ok()?;
    let mut descriptors = parsed.descriptors.iter().rev();
    let last = descriptors.next()?;
    let is_type = |d: &&scip::types::Descriptor| d.suffix.enum_value() == Ok(Suffix::Type);
    let mut container = descriptors.find(is_type).map(|d| d.name.clone());
    let mut name = last.name.clone();
    // `Foo#<constructor>().`, `Foo#__init__().`: a call writes `Foo(...)` / `new Foo(...)`.
    if matches!(name.as_str(), "<constructor>" | "__init__")
        && let Some(owner) = container.take()
    {
        name = owner;
        container = parsed
            .descriptors
            .iter()
            .rev()
            .skip(2)
            .find(is_type)
            .map(|d| d.name.clone());
    }
    (!name.is_empty()).then_some(Target {
        name,
        container,
        definition: None,
    })
}

/// The index as last read: (size, mtime) of the file, and what it held (None: absent or
/// unreadable, already reported).
pub(super) type Cached = Option<((u64, u64), Option<Arc<ScipIndex>>)>;

impl super::Index {
    /// Whether a code file is newer than `index.scip` (or there is none while there is code):
    /// what the operator's indexer command is run for.
    pub fn scip_is_stale(&self) -> crate::error::HostResult<bool> {
        let newest = self.code_files()?.iter().map(|f| f.mtime_ms).max();
        let Some(newest) = newest else {
            return Ok(false);
        };
        Ok(match self.ws.stat(SCIP_FILE) {
            Ok(e) => e.modified_ms < newest,
            Err(_) => true,
        })
    }

    /// The project's SCIP index, read again when its size or mtime changed (one stat per
    /// call otherwise), or None when there is none or it cannot be read (said once in the
    /// log, with why).
    pub fn scip(&self) -> Option<Arc<ScipIndex>> {
        let stamp = match self.ws.stat(SCIP_FILE) {
            Ok(e) if e.kind == crate::workspace::EntryKind::File => (e.size, e.modified_ms),
            _ => {
                *self.scip.lock().unwrap_or_else(|p| p.into_inner()) = None;
                return None;
            }
        };
        let mut cached = self.scip.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((at, index)) = cached.as_ref()
            && *at == stamp
        {
            return index.clone();
        }
        let started = std::time::Instant::now();
        let read = match self.ws.snapshot(SCIP_FILE, MAX_SCIP_BYTES) {
            Ok(Some((bytes, _))) => ScipIndex::parse(&bytes, stamp.1).map_err(|e| format!("{e:#}")),
            Ok(None) => Err("it went while being read".to_string()),
            Err(err) => Err(err.message),
        };
        let index = match read {
            Ok(index) => {
                let (documents, references) = index.size();
                tracing::info!(
                    tool = %index.tool,
                    documents,
                    references,
                    ms = started.elapsed().as_millis() as u64,
                    "read {SCIP_FILE}: calls resolve through it in the files it describes"
                );
                Some(Arc::new(index))
            }
            Err(why) => {
                tracing::warn!("{SCIP_FILE} not used: {why}");
                None
            }
        };
        *cached = Some((stamp, index.clone()));
        index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_containers_come_from_the_descriptors() {
        let t = target_of("scip-python python requests 2.32.3 `requests.sessions`/Session#send().")
            .unwrap();
        assert_eq!(
            (t.name.as_str(), t.container.as_deref()),
            ("send", Some("Session"))
        );
        let t = target_of("rust-analyzer cargo ignore 0.4.23 walk/WalkBuilder#new().").unwrap();
        assert_eq!(
            (t.name.as_str(), t.container.as_deref()),
            ("new", Some("WalkBuilder"))
        );
        let t =
            target_of("scip-typescript npm rxjs 7.8.1 src/`Subject.ts`/Subject#`<constructor>`().")
                .unwrap();
        assert_eq!((t.name.as_str(), t.container), ("Subject", None));
        let t = target_of("local 4").unwrap();
        assert_eq!(t.name, "4");
        assert!(target_of("not a symbol").is_none());
    }

    #[test]
    fn paths_outside_the_root_are_dropped() {
        assert_eq!(normalized("./src/a.py").as_deref(), Some("src/a.py"));
        assert_eq!(normalized("../x.py"), None);
        assert_eq!(normalized("/etc/passwd"), None);
        assert_eq!(normalized(""), None);
    }
}
