//! The SQLite side of the index (tables `files`, `chunks`, `symbols`, `edges` in state.db):
//! what is looked up by key rather than ranked. The indexer writes through one connection;
//! queries read through another, so a long indexing transaction never blocks a lookup (WAL).

use super::chunks::Chunk;
use super::code::Symbol;
use crate::store::now_ms;
use anyhow::Result;
use rusqlite::{Connection, OptionalExtension, params};
use std::collections::HashMap;
use std::path::Path;

/// What the catalogue remembers of an indexed file, to decide whether to read it again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Known {
    pub hash: String,
    pub size: u64,
    pub mtime_ms: u64,
    /// When the row was written (or its size and mtime last confirmed against the content).
    pub indexed_ms: u64,
    /// What read it (see `classify::reader`): empty for a file left out, or a row written
    /// before readers were recorded.
    pub reader: String,
}

/// A file a pass left out, as the catalogue remembers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub known: Known,
    pub reason: String,
}

/// How close to its indexing a file's mtime makes it "racily clean" (git's term): an edit
/// that keeps the size and lands within the filesystem's timestamp granularity of the read
/// (or while the pass was still committing) leaves size and mtime as they were, so such a
/// file is hashed again instead of trusted.
pub const RACY_MS: u64 = 5_000;

impl Known {
    /// Size and mtime still say the file is as indexed, and its mtime is old enough to
    /// tell (see [`RACY_MS`]).
    pub fn unchanged(&self, size: u64, mtime_ms: u64) -> bool {
        self.size == size
            && self.mtime_ms == mtime_ms
            && self.mtime_ms.saturating_add(RACY_MS) < self.indexed_ms
    }
}

/// A file's index entry, ready to be written.
#[derive(Debug, Clone)]
pub struct FileEntry {
    pub path: String,
    pub hash: String,
    pub size: u64,
    pub mtime_ms: u64,
    pub kind: &'static str,
    pub language: Option<String>,
    /// What read it (see `classify::reader`).
    pub reader: String,
    pub lossy: bool,
    /// Its search chunks, until they are in the search index (the catalogue keeps only how
    /// many: `chunk_count`), so a pass holds no second copy of a file's text while it waits
    /// for its catalogue batch.
    pub chunks: Vec<Chunk>,
    pub chunk_count: u64,
    pub symbols: Vec<Symbol>,
    /// (edge kind, name, key, line)
    pub edges: Vec<(&'static str, String, String, u32)>,
    /// The error code of a document whose parser failed.
    pub parse_error: Option<String>,
}

/// A definition found by name.
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolRow {
    pub path: String,
    pub language: Option<String>,
    pub symbol: Symbol,
}

/// An edge row joined with its file.
#[derive(Debug, Clone, PartialEq)]
pub struct EdgeRow {
    pub path: String,
    pub language: Option<String>,
    pub kind: String,
    pub name: String,
    pub line: u32,
}

/// Totals for status reports.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    pub files: u64,
    pub code: u64,
    pub documents: u64,
    pub text: u64,
    pub chunks: u64,
    pub symbols: u64,
    /// Files left out (binary, sensitive, too large, unreadable).
    pub skipped: u64,
    pub lossy: u64,
    /// Documents whose parser failed, by error code.
    pub failed: std::collections::BTreeMap<String, u64>,
}

pub fn connect(db: &Path) -> Result<Connection> {
    let conn = Connection::open(db)?;
    crate::store::harden(&conn)?;
    conn.pragma_update(None, "foreign_keys", true)?;
    // The catalogue is derived data: a lost tail after a power cut is reindexed.
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    // Bulk inserts into the name indexes touch pages all over the file: a page cache that
    // holds them turns a full pass's catalogue write from seconds of I/O into memory work.
    conn.pragma_update(None, "cache_size", -65_536)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    Ok(conn)
}

pub fn known(conn: &Connection) -> Result<HashMap<String, Known>> {
    let mut stmt =
        conn.prepare("SELECT path, hash, size, mtime_ms, indexed_ms, reader FROM files")?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            Known {
                hash: r.get(1)?,
                size: r.get::<_, i64>(2)? as u64,
                mtime_ms: r.get::<_, i64>(3)? as u64,
                indexed_ms: r.get::<_, i64>(4)? as u64,
                reader: r.get(5)?,
            },
        ))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The files passes left out, by path: their size and mtime when seen, and why.
pub fn skipped(conn: &Connection) -> Result<HashMap<String, Skipped>> {
    let mut stmt =
        conn.prepare("SELECT path, size, mtime_ms, seen_ms, reason FROM skipped_files")?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            Skipped {
                known: Known {
                    hash: String::new(),
                    size: r.get::<_, i64>(1)? as u64,
                    mtime_ms: r.get::<_, i64>(2)? as u64,
                    indexed_ms: r.get::<_, i64>(3)? as u64,
                    reader: String::new(),
                },
                reason: r.get(4)?,
            },
        ))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Every indexed path.
pub fn indexed_paths(conn: &Connection) -> Result<Vec<String>> {
    let mut stmt = conn.prepare("SELECT path FROM files")?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Every path the catalogue accounts for: indexed or left out on purpose.
pub fn accounted_paths(conn: &Connection) -> Result<std::collections::HashSet<String>> {
    let mut stmt =
        conn.prepare("SELECT path FROM files UNION ALL SELECT path FROM skipped_files")?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A parser's failure on one content, as remembered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParserFailure {
    pub plugin: String,
    pub code: String,
    pub message: String,
}

/// The failure of the parser of SHA-256 `plugin_sha256` on the content of BLAKE3
/// `content_hash`, if it failed on it before.
pub fn parser_failure(
    conn: &Connection,
    plugin_sha256: &str,
    content_hash: &str,
) -> Result<Option<ParserFailure>> {
    Ok(conn
        .prepare_cached(
            "SELECT plugin, code, message FROM parser_failures
             WHERE plugin_sha256 = ?1 AND content_hash = ?2",
        )?
        .query_row(params![plugin_sha256, content_hash], |r| {
            Ok(ParserFailure {
                plugin: r.get(0)?,
                code: r.get(1)?,
                message: r.get(2)?,
            })
        })
        .optional()?)
}

pub fn record_parser_failure(
    conn: &Connection,
    plugin_sha256: &str,
    content_hash: &str,
    failure: &ParserFailure,
) -> Result<()> {
    conn.execute(
        "INSERT OR REPLACE INTO parser_failures
         (plugin_sha256, content_hash, plugin, code, message, failed_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            plugin_sha256,
            content_hash,
            failure.plugin,
            failure.code,
            failure.message,
            now_ms() as i64
        ],
    )?;
    Ok(())
}

/// Forgets every parser failure: a full rebuild tries every parser again.
pub fn clear_parser_failures(conn: &Connection) -> Result<()> {
    conn.execute("DELETE FROM parser_failures", [])?;
    Ok(())
}

/// The last complete pass, as the catalogue remembers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pass {
    pub finished_ms: u64,
    /// What the walk saw and what read it (see `scan::fingerprint`).
    pub fingerprint: String,
    /// The set of readers the pass had (see `classify::readers`).
    pub readers: String,
}

/// Records a complete pass.
pub fn record_pass(conn: &Connection, pass: &Pass) -> Result<()> {
    conn.execute(
        "INSERT OR REPLACE INTO index_passes (id, finished_ms, fingerprint, readers)
         VALUES (1, ?1, ?2, ?3)",
        rusqlite::params![pass.finished_ms as i64, pass.fingerprint, pass.readers],
    )?;
    Ok(())
}

/// Forgets the last complete pass: the catalogue no longer holds what it indexed (a cancelled
/// full pass dropped files it had not reached), so its fingerprint says nothing.
pub fn forget_passes(conn: &Connection) -> Result<()> {
    conn.execute("DELETE FROM index_passes", [])?;
    Ok(())
}

/// The last complete pass recorded.
pub fn last_pass(conn: &Connection) -> Result<Option<Pass>> {
    Ok(conn
        .query_row(
            "SELECT finished_ms, fingerprint, readers FROM index_passes WHERE id = 1",
            [],
            |r| {
                Ok(Pass {
                    finished_ms: r.get::<_, i64>(0)? as u64,
                    fingerprint: r.get(1)?,
                    readers: r.get(2)?,
                })
            },
        )
        .optional()?)
}

/// The bits of a definition's or an edge's key that number it within its file: the key is
/// (file id << ROW_BITS) | its place in the file, so a file's rows are one range of keys
/// (migration 17).
pub const ROW_BITS: u32 = 24;

/// Edge kinds by their stored code (migration 17): the commonest first, as SQLite stores 0
/// and 1 in no bytes at all.
const EDGE_KINDS: [&str; 6] = ["call", "type", "import", "field", "link", "reference"];

/// The stored code of an edge kind.
fn edge_code(kind: &str) -> Result<i64> {
    EDGE_KINDS
        .iter()
        .position(|k| *k == kind)
        .map(|i| i as i64)
        .ok_or_else(|| anyhow::anyhow!("no edge kind {kind:?}"))
}

/// The edge kind whose code is in column `column` of `row` (an unknown code is an error
/// naming that column).
fn edge_kind(row: &rusqlite::Row, column: usize) -> rusqlite::Result<&'static str> {
    let code: i64 = row.get(column)?;
    usize::try_from(code)
        .ok()
        .and_then(|i| EDGE_KINDS.get(i))
        .copied()
        .ok_or(rusqlite::Error::IntegralValueOutOfRange(column, code))
}

/// Rows of one kind a file keeps at most (a file of the index's size limit has far fewer).
const ROWS_PER_FILE: usize = 1 << ROW_BITS;

/// The largest file id whose keys fit (SQLite gives ids in order; only a planted state.db
/// holds a larger one).
const MAX_FILE_ID: i64 = (1 << (63 - ROW_BITS)) - 1;

/// The keys of file `id`'s rows, `first..end`; None for an id out of range, which owns no
/// rows (its keys would wrap onto another file's).
fn rows_of(id: i64) -> Option<(i64, i64)> {
    (0..MAX_FILE_ID)
        .contains(&id)
        .then(|| (id << ROW_BITS, (id + 1) << ROW_BITS))
}

/// A file left out by a pass: (path, size, mtime, reason).
pub type SkipRow = (String, u64, u64, &'static str);

/// Writes entries, touches, files left out and removals (from both the indexed and the left
/// out) in one transaction.
pub fn apply(
    conn: &mut Connection,
    entries: &[FileEntry],
    touched: &[(String, u64, u64)],
    skipped: &[SkipRow],
    removed: &[String],
) -> Result<()> {
    let tx = conn.transaction()?;
    {
        let now = now_ms();
        // A file's rows go with its cached chunk previews: they are keyed by chunk id, with no
        // foreign key, and would otherwise stay in state.db for every chunk that ever was.
        let mut rows = FileRows {
            file: tx.prepare_cached("DELETE FROM files WHERE path = ?1 RETURNING id")?,
            previews: tx.prepare_cached("DELETE FROM chunk_summaries WHERE path = ?1")?,
            symbols: tx.prepare_cached("DELETE FROM symbols WHERE id >= ?1 AND id < ?2")?,
            edges: tx.prepare_cached("DELETE FROM edges WHERE id >= ?1 AND id < ?2")?,
        };
        let mut unskip = tx.prepare_cached("DELETE FROM skipped_files WHERE path = ?1")?;
        let mut skip = tx.prepare_cached(
            "INSERT OR REPLACE INTO skipped_files (path, size, mtime_ms, reason, seen_ms)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        let mut file = tx.prepare_cached(
            "INSERT INTO files (path, hash, size, mtime_ms, kind, language, lossy, indexed_ms, parse_error, reader, chunks)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        )?;
        let mut symbol = tx.prepare_cached(
            "INSERT INTO symbols (id, name, name_lower, kind, container, start_line, end_line, signature, doc, branches)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        )?;
        let mut edge = tx.prepare_cached(
            "INSERT INTO edges (id, kind, name, key, line) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for path in removed {
            rows.delete(path)?;
            unskip.execute([path])?;
        }
        for (path, size, mtime, reason) in skipped {
            rows.delete(path)?;
            skip.execute(params![
                path,
                *size as i64,
                *mtime as i64,
                reason,
                now as i64
            ])?;
        }
        for e in entries {
            rows.delete(&e.path)?;
            unskip.execute([&e.path])?;
            file.execute(params![
                e.path,
                e.hash,
                e.size as i64,
                e.mtime_ms as i64,
                e.kind,
                e.language,
                e.lossy,
                now as i64,
                e.parse_error,
                e.reader,
                e.chunk_count as i64
            ])?;
            let given = tx.last_insert_rowid();
            let mut id = given;
            if rows_of(id).is_none() {
                // SQLite gave the id after one out of range (a planted state.db's): the next
                // one in range instead.
                id = tx.query_row(
                    "SELECT coalesce(max(id), 0) + 1 FROM files WHERE id BETWEEN 0 AND ?1",
                    [MAX_FILE_ID - 1],
                    |r| r.get(0),
                )?;
                if rows_of(id).is_none() {
                    anyhow::bail!(
                        "the catalogue has no file id left in range; rebuild it: delete .smart-context/state.db"
                    );
                }
                tx.execute("UPDATE files SET id = ?1 WHERE id = ?2", [id, given])?;
            }
            rows.clear(id)?;
            let Some((first, _)) = rows_of(id) else {
                unreachable!("an id in range has keys")
            };
            for (seq, s) in e.symbols.iter().take(ROWS_PER_FILE).enumerate() {
                symbol.execute(params![
                    first + seq as i64,
                    s.name,
                    unfolded_lower(&s.name),
                    s.kind,
                    s.container,
                    s.start_line,
                    s.end_line,
                    s.signature,
                    s.doc.as_ref().map(|d| d.text.as_str()),
                    s.branches
                ])?;
            }
            for (seq, (kind, name, key, line)) in e.edges.iter().take(ROWS_PER_FILE).enumerate() {
                edge.execute(params![
                    first + seq as i64,
                    edge_code(kind)?,
                    name,
                    key,
                    line
                ])?;
            }
        }
        let mut touch = tx.prepare_cached(
            "UPDATE files SET size = ?2, mtime_ms = ?3, indexed_ms = ?4 WHERE path = ?1",
        )?;
        for (path, size, mtime) in touched {
            touch.execute(params![path, *size as i64, *mtime as i64, now as i64])?;
        }
    }
    tx.commit()?;
    Ok(())
}

/// Deletes a file's rows: its own, its cached previews, and its definitions and edges (by
/// their range of keys, see [`ROW_BITS`]).
struct FileRows<'t> {
    file: rusqlite::CachedStatement<'t>,
    previews: rusqlite::CachedStatement<'t>,
    symbols: rusqlite::CachedStatement<'t>,
    edges: rusqlite::CachedStatement<'t>,
}

impl FileRows<'_> {
    fn delete(&mut self, path: &str) -> rusqlite::Result<()> {
        self.previews.execute([path])?;
        let ids: Vec<i64> = self
            .file
            .query_map([path], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        for id in ids {
            self.clear(id)?;
        }
        Ok(())
    }

    /// Empties file `id`'s range of keys: a new file's holds exactly the rows written with it.
    fn clear(&mut self, id: i64) -> rusqlite::Result<()> {
        if let Some((first, end)) = rows_of(id) {
            self.symbols.execute([first, end])?;
            self.edges.execute([first, end])?;
        }
        Ok(())
    }
}

/// Forgets everything (before a full rebuild of a wiped search index).
pub fn clear(conn: &Connection) -> Result<()> {
    // The last pass goes too: its fingerprint would vouch for files no longer catalogued,
    // and a server started before the next pass ends would call the empty index fresh.
    // All or nothing: a catalogue half emptied would hold files the search index lacks.
    let tx = conn.unchecked_transaction()?;
    tx.execute_batch(
        "DELETE FROM files; DELETE FROM symbols; DELETE FROM edges; DELETE FROM skipped_files;
         DELETE FROM chunk_summaries; DELETE FROM index_passes;",
    )?;
    tx.commit()?;
    Ok(())
}

pub fn counts(conn: &Connection) -> Result<Counts> {
    let mut counts = Counts::default();
    let mut stmt = conn.prepare("SELECT kind, count(*), sum(lossy) FROM files GROUP BY kind")?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, i64>(1)? as u64,
            r.get::<_, i64>(2)? as u64,
        ))
    })?;
    for row in rows {
        let (kind, n, lossy) = row?;
        counts.files += n;
        counts.lossy += lossy;
        match kind.as_str() {
            "code" => counts.code += n,
            "document" => counts.documents += n,
            _ => counts.text += n,
        }
    }
    let count = |table: &str| -> Result<u64> {
        let n: i64 = conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))?;
        Ok(n as u64)
    };
    let mut stmt = conn.prepare(
        "SELECT parse_error, count(*) FROM files WHERE parse_error IS NOT NULL GROUP BY 1",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
    for row in rows {
        let (code, n) = row?;
        counts.failed.insert(code, n as u64);
    }
    counts.chunks = conn.query_row("SELECT coalesce(sum(chunks), 0) FROM files", [], |r| {
        r.get::<_, i64>(0)
    })? as u64;
    counts.symbols = count("symbols")?;
    counts.skipped = count("skipped_files")?;
    Ok(counts)
}

fn symbol_row(r: &rusqlite::Row) -> rusqlite::Result<SymbolRow> {
    let doc: Option<String> = r.get(8)?;
    let start: u32 = r.get(5)?;
    Ok(SymbolRow {
        path: r.get(0)?,
        language: r.get(1)?,
        symbol: Symbol {
            name: r.get(2)?,
            kind: r.get(3)?,
            container: r.get(4)?,
            start_line: start,
            end_line: r.get(6)?,
            signature: r.get(7)?,
            // Doc comment positions are not catalogued: the text is what lookups need.
            doc: doc.map(|text| super::code::Doc {
                text,
                start_line: start,
                end_line: start,
            }),
            branches: r.get(9)?,
        },
    })
}

/// What the name index is built on (migration 18): a definition's name in lower case.
/// SQLite's `lower()` folds ASCII only; the few names Unicode folds otherwise (`Ärger`)
/// keep their lower-case form in `name_lower`, NULL for every other name.
const NAME_KEY: &str = "coalesce(s.name_lower, lower(s.name))";

/// A name's `name_lower`: its lower case where SQLite's `lower()` would not make it.
fn unfolded_lower(name: &str) -> Option<String> {
    let lower = name.to_lowercase();
    (lower != name.to_ascii_lowercase()).then_some(lower)
}

const SYMBOL_COLUMNS: &str = "f.path, f.language, s.name, s.kind, s.container, s.start_line, \
     s.end_line, s.signature, s.doc, s.branches";

/// Definitions whose lower-cased name begins with `prefix` (lower case), shortest first.
pub fn symbols_prefixed(conn: &Connection, prefix: &str, limit: usize) -> Result<Vec<SymbolRow>> {
    // A range on the name index: every name starting with `prefix` sorts between it and it
    // followed by the greatest character (LIKE, case-insensitive, scans the table).
    let sql = format!(
        "SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.id >> {ROW_BITS}
         WHERE {NAME_KEY} >= ?1 AND {NAME_KEY} < ?2
         ORDER BY length(s.name), f.path, s.start_line, s.end_line, s.name, s.kind,
                  s.container LIMIT ?3"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let end = format!("{prefix}{}", char::MAX);
    let rows = stmt.query_map(params![prefix, end, limit as i64], symbol_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Definitions named exactly one of `names` (lower case).
pub fn symbols_named(conn: &Connection, names: &[String], limit: usize) -> Result<Vec<SymbolRow>> {
    let sql = format!(
        "SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.id >> {ROW_BITS}
         WHERE {NAME_KEY} = ?1
         ORDER BY f.path, s.start_line, s.end_line, s.name, s.kind, s.container LIMIT ?2"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let mut out = Vec::new();
    for name in names {
        let rows = stmt.query_map(params![name, limit as i64], symbol_row)?;
        out.extend(rows.collect::<Result<Vec<_>, _>>()?);
    }
    Ok(out)
}

/// The definitions of `path` as catalogued, in extraction order, when the catalogue holds it
/// at content `hash`; None when it does not (not indexed, or changed since).
pub fn symbols_of(conn: &Connection, path: &str, hash: &str) -> Result<Option<Vec<SymbolRow>>> {
    let known: Option<i64> = conn
        .query_row(
            "SELECT id FROM files WHERE path = ?1 AND hash = ?2",
            params![path, hash],
            |r| r.get(0),
        )
        .optional()?;
    let Some(id) = known else { return Ok(None) };
    let sql = format!(
        "SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.id >> {ROW_BITS}
         WHERE s.id >= ?1 AND s.id < ?2 ORDER BY s.id"
    );
    let Some((first, end)) = rows_of(id) else {
        return Ok(Some(Vec::new()));
    };
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([first, end], symbol_row)?;
    Ok(Some(rows.collect::<Result<_, _>>()?))
}

/// Every distinct lower-cased symbol name, for fuzzy matching.
pub fn symbol_names(conn: &Connection) -> Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT DISTINCT {NAME_KEY} AS key FROM symbols s ORDER BY key"
    ))?;
    let rows = stmt.query_map([], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Edges of one kind whose name or key is `value`, as [`EdgeLookup`] says.
pub fn edges_by(
    conn: &Connection,
    lookup: EdgeLookup,
    value: &str,
    limit: usize,
) -> Result<Vec<EdgeRow>> {
    let mut stmt = conn.prepare_cached(&lookup.sql())?;
    let rows = stmt.query_map(params![value, limit as i64], edge_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// An [`EdgeRow`] from a lookup's columns: path, language, kind, name, line.
fn edge_row(r: &rusqlite::Row) -> rusqlite::Result<EdgeRow> {
    Ok(EdgeRow {
        path: r.get(0)?,
        language: r.get(1)?,
        kind: edge_kind(r, 2)?.to_string(),
        name: r.get(3)?,
        line: r.get(4)?,
    })
}

/// Call sites of `name` in the files at `paths`, in path then line order, at most `limit`:
/// what [`EdgeLookup::CallsNamed`] finds, over the files the search index says call the
/// name, each read by its range of keys, so no index of every call's name is kept
/// (migration 18).
pub fn calls_named_in(
    conn: &Connection,
    name: &str,
    paths: &[String],
    limit: usize,
) -> Result<Vec<EdgeRow>> {
    /// Files per statement: a common name is called in thousands of files, and the first
    /// few hundred hold `limit` calls.
    const FILES_PER_READ: usize = 256;
    let mut sorted: Vec<&String> = paths.iter().collect();
    sorted.sort_unstable();
    let mut stmt = conn.prepare_cached(&calls_named_in_sql())?;
    let mut out = Vec::new();
    for batch in sorted.chunks(FILES_PER_READ) {
        if out.len() >= limit {
            break;
        }
        let batch_json = serde_json::to_string(batch)?;
        let rows = stmt.query_map(
            params![batch_json, name, (limit - out.len()) as i64],
            edge_row,
        )?;
        for row in rows {
            out.push(row?);
        }
    }
    Ok(out)
}

/// The condition leaving out a call edge that records a function named as a value
/// (`code::NAMED_AS_VALUE`, which opens its key): no call site of its name.
fn no_value() -> String {
    format!(
        "substr(e.key, 1, 1) != '{}'",
        crate::index::code::NAMED_AS_VALUE
    )
}

/// [`calls_named_in`]'s statement: each listed file's range of keys (see [`ROW_BITS`]).
pub(crate) fn calls_named_in_sql() -> String {
    format!(
        "SELECT f.path, f.language, e.kind, e.name, e.line
         FROM json_each(?1) j
         JOIN files f ON f.path = j.value
         CROSS JOIN edges e ON e.id >= (f.id << {ROW_BITS}) AND e.id < ((f.id + 1) << {ROW_BITS})
         WHERE f.id BETWEEN 0 AND {MAX_FILE_ID} - 1 AND +e.kind = {call} AND e.name = ?2
           AND {no_value}
         ORDER BY f.path, e.line, e.kind, e.name, e.key LIMIT ?3",
        call = edge_code("call").unwrap_or_default(),
        no_value = no_value(),
    )
}

/// The edge lookups the catalogue answers, imports and links each by an index of its own
/// rows (migration 15).
#[derive(Debug, Clone, Copy)]
pub enum EdgeLookup {
    /// Call sites of a name, over every edge: only where the search index cannot say which
    /// files call it (see [`calls_named_in`]); no index serves it since migration 18.
    CallsNamed,
    /// Imports whose key (a module path's last segment) is the value.
    ImportsKeyed,
    /// Links whose key (a document's stem) is the value.
    LinksKeyed,
}

impl EdgeLookup {
    /// The lookup's statement (value `?1`, limit `?2`). The kind is written into it, not
    /// bound: only then does SQLite know the lookup's partial index covers it.
    pub fn sql(self) -> String {
        let (kind, column) = match self {
            Self::CallsNamed => ("call", "e.name"),
            Self::ImportsKeyed => ("import", "e.key"),
            Self::LinksKeyed => ("link", "e.key"),
        };
        let values = match self {
            Self::CallsNamed => format!("AND {}", no_value()),
            Self::ImportsKeyed | Self::LinksKeyed => String::new(),
        };
        let kind = edge_code(kind).unwrap_or_default();
        format!(
            "SELECT f.path, f.language, e.kind, e.name, e.line FROM edges e JOIN files f ON f.id = e.id >> {ROW_BITS}
             WHERE e.kind = {kind} AND {column} = ?1 {values} ORDER BY f.path, e.line, e.kind, e.name, e.key LIMIT ?2"
        )
    }
}

/// Indexed paths whose file name is `name`, at the root or in any directory (`go.mod`).
pub fn paths_named(conn: &Connection, name: &str) -> Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT path FROM files WHERE path = ?1 OR substr(path, -length(?2)) = ?2 ORDER BY path",
    )?;
    let rows = stmt.query_map(params![name, format!("/{name}")], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Indexed paths containing `fragment`, for import resolution.
pub fn paths_containing(conn: &Connection, fragment: &str, limit: usize) -> Result<Vec<String>> {
    let escaped = fragment
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    let mut stmt = conn.prepare_cached(
        "SELECT path FROM files WHERE path LIKE ?1 ESCAPE '\\' ORDER BY length(path), path LIMIT ?2",
    )?;
    let rows = stmt.query_map(params![format!("%{escaped}%"), limit as i64], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A catalogued code file, as the analysis layer first sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeFile {
    pub id: i64,
    pub path: String,
    pub hash: String,
    pub language: Option<String>,
    /// The mtime the file had when it was indexed: whether a SCIP index written at some
    /// time describes this content.
    pub mtime_ms: u64,
}

/// Every catalogued code file with its content hash: what the analysis layer compares with
/// its copy to find the files whose facts it must read again.
pub fn code_files(conn: &Connection) -> Result<Vec<CodeFile>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, path, hash, language, mtime_ms FROM files WHERE kind = 'code' ORDER BY path",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(CodeFile {
            id: r.get(0)?,
            path: r.get(1)?,
            hash: r.get(2)?,
            language: r.get(3)?,
            mtime_ms: r.get::<_, i64>(4)? as u64,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// [`facts_of`]'s definitions: each file's range of keys, in key order (`CROSS JOIN` keeps
/// SQLite from scanning every definition for each file).
fn symbols_of_files_sql() -> String {
    format!(
        "SELECT s.id >> {ROW_BITS}, s.name, s.kind, s.container, s.start_line, s.end_line,
                s.signature, s.branches
         FROM json_each(?1) j
         CROSS JOIN symbols s ON s.id >= (j.value << {ROW_BITS}) AND s.id < ((j.value + 1) << {ROW_BITS})
         WHERE j.value BETWEEN 0 AND {MAX_FILE_ID} - 1
         ORDER BY s.id"
    )
}

/// [`facts_of`]'s edges: each file's range of keys, in key order, links left out.
fn edges_of_files_sql() -> String {
    format!(
        "SELECT e.id >> {ROW_BITS}, e.kind, e.name, e.key, e.line
         FROM json_each(?1) j
         CROSS JOIN edges e ON e.id >= (j.value << {ROW_BITS}) AND e.id < ((j.value + 1) << {ROW_BITS})
         WHERE +e.kind <> {link} AND j.value BETWEEN 0 AND {MAX_FILE_ID} - 1
         ORDER BY e.id",
        link = edge_code("link").unwrap_or_default()
    )
}

/// The definitions (without doc text) and the import, call and reference edges of the files
/// `ids`, by file id, each in catalogue order.
///
/// Both queries read each file's range of keys (see [`ROW_BITS`]; `+kind` keeps the planner
/// off the partial indexes of one kind).
#[allow(clippy::type_complexity)]
pub fn facts_of(
    conn: &Connection,
    ids: &[i64],
) -> Result<HashMap<i64, (Vec<Symbol>, Vec<(String, String, String, u32)>)>> {
    let ids_json = serde_json::to_string(ids)?;
    let mut out: HashMap<i64, (Vec<Symbol>, Vec<(String, String, String, u32)>)> = HashMap::new();
    let mut stmt = conn.prepare_cached(&symbols_of_files_sql())?;
    let rows = stmt.query_map([&ids_json], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            Symbol {
                name: r.get(1)?,
                kind: r.get(2)?,
                container: r.get(3)?,
                start_line: r.get(4)?,
                end_line: r.get(5)?,
                signature: r.get(6)?,
                doc: None,
                branches: r.get(7)?,
            },
        ))
    })?;
    for row in rows {
        let (id, symbol) = row?;
        out.entry(id).or_default().0.push(symbol);
    }
    let mut stmt = conn.prepare_cached(&edges_of_files_sql())?;
    let rows = stmt.query_map([&ids_json], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            (
                edge_kind(r, 1)?.to_string(),
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
            ),
        ))
    })?;
    for row in rows {
        let (id, edge) = row?;
        out.entry(id).or_default().1.push(edge);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str, symbols: &[&str], calls: &[&str]) -> FileEntry {
        FileEntry {
            path: path.into(),
            hash: format!("h-{path}-{}", symbols.join(",")),
            size: 1,
            mtime_ms: 1,
            kind: "code",
            language: Some("python".into()),
            reader: String::new(),
            lossy: false,
            chunks: Vec::new(),
            chunk_count: 0,
            symbols: symbols
                .iter()
                .enumerate()
                .map(|(i, name)| Symbol {
                    name: name.to_string(),
                    kind: "function".into(),
                    container: None,
                    start_line: i as u32 + 1,
                    end_line: i as u32 + 1,
                    signature: format!("def {name}()"),
                    doc: None,
                    branches: 0,
                })
                .collect(),
            edges: calls
                .iter()
                .enumerate()
                .map(|(i, name)| ("call", name.to_string(), String::new(), i as u32 + 1))
                .collect(),
            parse_error: None,
        }
    }

    fn conn() -> Connection {
        let mut conn = Connection::open_in_memory().unwrap();
        crate::store::migrate_for_tests(&mut conn);
        conn
    }

    fn id_of(conn: &Connection, path: &str) -> i64 {
        conn.query_row("SELECT id FROM files WHERE path = ?1", [path], |r| r.get(0))
            .unwrap()
    }

    /// Each file's (definition names, call names), as `facts_of` reads them.
    fn facts(conn: &Connection, paths: &[&str]) -> Vec<(Vec<String>, Vec<String>)> {
        let ids: Vec<i64> = paths.iter().map(|p| id_of(conn, p)).collect();
        let mut all = facts_of(conn, &ids).unwrap();
        ids.iter()
            .map(|id| {
                let (symbols, edges) = all.remove(id).unwrap_or_default();
                (
                    symbols.into_iter().map(|s| s.name).collect(),
                    edges.into_iter().map(|e| e.1).collect(),
                )
            })
            .collect()
    }

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_file_s_definitions_and_edges_are_written_read_and_deleted_with_it() {
        let mut conn = conn();
        apply(
            &mut conn,
            &[
                entry("a.py", &["a1", "a2"], &["x", "y"]),
                entry("b.py", &["b1"], &["z"]),
            ],
            &[],
            &[],
            &[],
        )
        .unwrap();
        assert_eq!(
            facts(&conn, &["a.py", "b.py"]),
            [
                (names(&["a1", "a2"]), names(&["x", "y"])),
                (names(&["b1"]), names(&["z"]))
            ]
        );
        // Written again: its old rows are gone, the other file's kept.
        apply(&mut conn, &[entry("a.py", &["a3"], &[])], &[], &[], &[]).unwrap();
        assert_eq!(
            facts(&conn, &["a.py", "b.py"]),
            [
                (names(&["a3"]), names(&[])),
                (names(&["b1"]), names(&["z"]))
            ]
        );
        let hash = "h-a.py-a3";
        let listed = symbols_of(&conn, "a.py", hash).unwrap().unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].path, "a.py");
        apply(&mut conn, &[], &[], &[], &["b.py".to_string()]).unwrap();
        let count = |table: &str| -> i64 {
            conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
                .unwrap()
        };
        assert_eq!((count("symbols"), count("edges")), (1, 0));
        clear(&conn).unwrap();
        assert_eq!((count("symbols"), count("edges")), (0, 0));
    }

    #[test]
    fn rows_left_in_a_new_file_s_key_range_are_not_its_own() {
        // A planted state.db (or any row no file owns) cannot lend its rows to the file that
        // is given that id next.
        let mut conn = conn();
        apply(&mut conn, &[entry("a.py", &["a1"], &["x"])], &[], &[], &[]).unwrap();
        let next = id_of(&conn, "a.py") + 1;
        conn.execute(
            "INSERT INTO symbols (id, name, name_lower, kind, start_line, end_line, signature)
             VALUES (?1, 'planted', 'planted', 'function', 1, 1, 'def planted()')",
            [next << ROW_BITS],
        )
        .unwrap();
        apply(&mut conn, &[entry("b.py", &["b1"], &[])], &[], &[], &[]).unwrap();
        assert_eq!(id_of(&conn, "b.py"), next);
        assert_eq!(facts(&conn, &["b.py"]), [(names(&["b1"]), names(&[]))]);
    }

    #[test]
    fn a_planted_file_id_out_of_range_lends_no_rows_and_takes_none() {
        // Its keys would wrap onto another file's: it owns no rows, and the next file is
        // given an id in range.
        let mut conn = conn();
        apply(&mut conn, &[entry("a.py", &["a1"], &["x"])], &[], &[], &[]).unwrap();
        let wraps_onto_a = (1i64 << (64 - ROW_BITS)) + id_of(&conn, "a.py");
        conn.execute(
            "INSERT INTO files (id, path, hash, size, mtime_ms, kind, indexed_ms)
             VALUES (?1, 'planted.py', 'h', 1, 1, 'code', 1)",
            [wraps_onto_a],
        )
        .unwrap();
        assert_eq!(facts(&conn, &["planted.py"]), [(names(&[]), names(&[]))]);
        apply(&mut conn, &[entry("b.py", &["b1"], &["y"])], &[], &[], &[]).unwrap();
        assert!(rows_of(id_of(&conn, "b.py")).is_some());
        apply(&mut conn, &[], &[], &[], &["planted.py".to_string()]).unwrap();
        assert_eq!(
            facts(&conn, &["a.py", "b.py"]),
            [
                (names(&["a1"]), names(&["x"])),
                (names(&["b1"]), names(&["y"]))
            ]
        );
    }

    #[test]
    fn a_file_s_rows_are_read_by_their_range_of_keys() {
        let conn = conn();
        for sql in [symbols_of_files_sql(), edges_of_files_sql()] {
            let plan = crate::store::query_plan(&conn, &sql, ["[1, 2]"]);
            assert!(
                plan.iter()
                    .any(|step| step.contains("INTEGER PRIMARY KEY (rowid>? AND rowid<?)")),
                "{plan:?}"
            );
        }
    }

    #[test]
    fn definitions_are_found_by_their_lower_case_name_through_the_name_index() {
        let mut conn = conn();
        let defs = ["parseConfig", "PARSE_ALL", "Ärger", "café", "İndex"];
        apply(&mut conn, &[entry("a.py", &defs, &[])], &[], &[], &[]).unwrap();
        let found = |rows: Vec<SymbolRow>| -> Vec<String> {
            let mut names: Vec<String> = rows.into_iter().map(|r| r.symbol.name).collect();
            names.sort();
            names
        };
        for name in defs {
            let lower = name.to_lowercase();
            assert_eq!(
                found(symbols_named(&conn, &[lower], 10).unwrap()),
                [name],
                "{name}"
            );
        }
        assert_eq!(
            found(symbols_prefixed(&conn, "parse", 10).unwrap()),
            ["PARSE_ALL", "parseConfig"]
        );
        assert_eq!(found(symbols_prefixed(&conn, "är", 10).unwrap()), ["Ärger"]);
        let mut lower: Vec<String> = defs.iter().map(|d| d.to_lowercase()).collect();
        lower.sort();
        assert_eq!(symbol_names(&conn).unwrap(), lower);
        // Only the names SQLite's `lower()` folds otherwise keep their lower case.
        let kept: Vec<String> = conn
            .prepare("SELECT name_lower FROM symbols WHERE name_lower IS NOT NULL ORDER BY 1")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(kept, ["i\u{307}ndex", "ärger"]);
        for sql in [
            format!("SELECT s.name FROM symbols s WHERE {NAME_KEY} = ?1"),
            format!(
                "SELECT s.name FROM symbols s WHERE {NAME_KEY} >= ?1 AND {NAME_KEY} < ?1 || 'z'"
            ),
        ] {
            let plan = crate::store::query_plan(&conn, &sql, ["parse"]);
            assert!(
                plan.iter()
                    .any(|step| step.contains("USING INDEX idx_symbols_name")),
                "{plan:?}"
            );
        }
    }
}
