//! Numbered schema migrations. Each runs once, in order, in its own SQLite transaction;
//! `PRAGMA user_version` records how far a database has come. Append, never edit.

use anyhow::{Context, Result, bail};
use rusqlite::Connection;

const MIGRATIONS: &[&str] = &[
    // 1: the transaction journal.
    "CREATE TABLE transactions (
        id TEXT PRIMARY KEY,
        intent TEXT NOT NULL,
        state TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        undoes TEXT REFERENCES transactions(id)
     );
     CREATE TABLE transaction_files (
        tx_id TEXT NOT NULL REFERENCES transactions(id) ON DELETE CASCADE,
        ord INTEGER NOT NULL,
        path TEXT NOT NULL,
        before BLOB,
        before_hash TEXT,
        after BLOB,
        after_hash TEXT,
        PRIMARY KEY (tx_id, ord)
     );
     CREATE INDEX idx_transactions_state ON transactions(state);",
    // 2: the code and document index catalogue. Chunk bodies live in the tantivy index;
    // these tables hold what is looked up by key (paths, symbol names, edges).
    "CREATE TABLE files (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        hash TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime_ms INTEGER NOT NULL,
        kind TEXT NOT NULL,
        language TEXT,
        lossy INTEGER NOT NULL DEFAULT 0,
        indexed_ms INTEGER NOT NULL
     );
     CREATE TABLE chunks (
        id TEXT PRIMARY KEY,
        file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        symbol TEXT,
        heading_path_json TEXT,
        start_line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        page INTEGER,
        content_hash TEXT NOT NULL
     );
     CREATE INDEX idx_chunks_file ON chunks(file_id);
     CREATE TABLE symbols (
        id INTEGER PRIMARY KEY,
        file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        name_lower TEXT NOT NULL,
        kind TEXT NOT NULL,
        container TEXT,
        start_line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        signature TEXT NOT NULL,
        doc TEXT
     );
     CREATE INDEX idx_symbols_file ON symbols(file_id);
     CREATE INDEX idx_symbols_name ON symbols(name_lower);
     CREATE TABLE edges (
        file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK(kind IN ('import', 'call', 'reference', 'link')),
        name TEXT NOT NULL,
        key TEXT NOT NULL,
        line INTEGER NOT NULL
     );
     CREATE INDEX idx_edges_file ON edges(file_id);
     CREATE INDEX idx_edges_key ON edges(kind, key);",
    // 3: ADR-038 evidence packs and the chunk summary cache.
    "CREATE TABLE evidence_packs (
        pack_id TEXT PRIMARY KEY,
        query TEXT NOT NULL,
        options_json TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER,
        degraded_json TEXT,
        root_fingerprint TEXT
     );
     CREATE TABLE evidence_pack_items (
        pack_id TEXT NOT NULL,
        role TEXT NOT NULL CHECK(role IN ('result','evidence')),
        rank INTEGER NOT NULL,
        chunk_id TEXT NOT NULL,
        file_path TEXT NOT NULL,
        kind TEXT NOT NULL,
        section_id TEXT NOT NULL,
        heading_path_json TEXT,
        start_line INTEGER,
        end_line INTEGER,
        preview TEXT NOT NULL,
        content_hash_snapshot TEXT,
        updated_at_snapshot INTEGER,
        scores_json TEXT,
        PRIMARY KEY(pack_id, role, rank),
        FOREIGN KEY(pack_id) REFERENCES evidence_packs(pack_id) ON DELETE CASCADE
     );
     CREATE INDEX idx_evidence_pack_items_chunk ON evidence_pack_items(chunk_id);
     CREATE INDEX idx_evidence_pack_items_file ON evidence_pack_items(file_path);
     CREATE TABLE chunk_summaries (
        chunk_id TEXT NOT NULL,
        style TEXT NOT NULL,
        summary TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY(chunk_id, style)
     );",
    // 4: why a document could not be parsed (ENCRYPTED, MALFORMED, ...), so status can count
    // failures by code and the next pass does not retry an unchanged file.
    "ALTER TABLE files ADD COLUMN parse_error TEXT;",
    // 5: what explore needs beyond the ADR-038 columns: a per-pack secret for signing cursors,
    // per-item render facts and what the agent was shown, the content hash a cached summary
    // was made from, and an index for TTL pruning.
    "ALTER TABLE evidence_packs ADD COLUMN salt TEXT NOT NULL DEFAULT '';
     ALTER TABLE evidence_pack_items ADD COLUMN meta_json TEXT NOT NULL DEFAULT '{}';
     ALTER TABLE evidence_pack_items ADD COLUMN shown TEXT NOT NULL DEFAULT '';
     ALTER TABLE chunk_summaries ADD COLUMN content_hash TEXT NOT NULL DEFAULT '';
     CREATE INDEX idx_evidence_packs_expires ON evidence_packs(expires_at);",
    // 6: redo: the transaction a redo applies again; references by callee name (change's
    // impact report looks one up per changed definition).
    "ALTER TABLE transactions ADD COLUMN redoes TEXT REFERENCES transactions(id);
     CREATE INDEX idx_edges_name ON edges(kind, name);",
    // 7: the journal is authenticated: a keyed hash over each transaction (the key lives
    // outside the root), so recovery, undo and redo replay only rows this machine wrote.
    "ALTER TABLE transactions ADD COLUMN mac TEXT;",
    // 8: the last complete index pass: when, and a fingerprint of the files it saw (paths,
    // sizes, mtimes), so a new process can tell "fresh" from "stale" without reindexing.
    "CREATE TABLE index_passes (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        finished_ms INTEGER NOT NULL,
        fingerprint TEXT NOT NULL
     );",
    // 9: the analysis layer: each definition's branch points (its complexity). Catalogued
    // files are marked changed (no mtime matches -1) so the next pass extracts them again.
    "ALTER TABLE symbols ADD COLUMN branches INTEGER NOT NULL DEFAULT 0;
     DELETE FROM index_passes;
     UPDATE files SET mtime_ms = -1, hash = '';",
    // 10: session memory (spec/progressive-disclosure-memory.md): one row per event, signed
    // with the journal key like transactions (a repository's own state.db cannot plant
    // memories), the files each touched, and a contentless full-text index of its terms
    // with a vocabulary view for document frequencies.
    "CREATE TABLE memory_events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK(kind IN ('prompt', 'response', 'tool', 'insight')),
        created_ms INTEGER NOT NULL,
        summary TEXT NOT NULL,
        content TEXT NOT NULL,
        tool TEXT,
        files_json TEXT NOT NULL DEFAULT '[]',
        tags_json TEXT NOT NULL DEFAULT '[]',
        tx_id TEXT,
        source TEXT NOT NULL,
        mac TEXT NOT NULL
     );
     CREATE INDEX idx_memory_events_session ON memory_events(session_id, seq);
     CREATE INDEX idx_memory_events_created ON memory_events(created_ms);
     CREATE TABLE memory_files (
        seq INTEGER NOT NULL REFERENCES memory_events(seq) ON DELETE CASCADE,
        path TEXT NOT NULL
     );
     CREATE INDEX idx_memory_files_path ON memory_files(path, seq);
     CREATE INDEX idx_memory_files_seq ON memory_files(seq);
     CREATE VIRTUAL TABLE memory_terms USING fts5(terms, content='', contentless_delete=1);
     CREATE VIRTUAL TABLE memory_vocab USING fts5vocab(memory_terms, 'row');",
    // 11: files a pass left out (binary, sensitive, too large, unreadable), with the size and
    // mtime it saw: the next pass and a new process know them as they know indexed files
    // (not work to redo, not files "not indexed yet"), and status counts them from here.
    // And parser failures by plugin and content: a parser that failed, trapped or ran out
    // of time on a content is not run on it again by any tool (a changed plugin is a new
    // plugin, a changed file a new content).
    "CREATE TABLE skipped_files (
        path TEXT PRIMARY KEY,
        size INTEGER NOT NULL,
        mtime_ms INTEGER NOT NULL,
        reason TEXT NOT NULL,
        seen_ms INTEGER NOT NULL
     );
     CREATE TABLE parser_failures (
        plugin_sha256 TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        plugin TEXT NOT NULL,
        code TEXT NOT NULL,
        message TEXT NOT NULL,
        failed_ms INTEGER NOT NULL,
        PRIMARY KEY (plugin_sha256, content_hash)
     );",
    // 12: evidence packs signed like the journal: a pack row or item this user's smart-context
    // did not write (a state.db shipped with a repository) is dropped, not shown. Rows are
    // stored under keyed ids, so the old unsigned ones are simply never found again.
    "ALTER TABLE evidence_packs ADD COLUMN mac TEXT NOT NULL DEFAULT '';
     ALTER TABLE evidence_pack_items ADD COLUMN mac TEXT NOT NULL DEFAULT '';
     DELETE FROM evidence_packs;",
    // 13: type edges: a variable's (`type`) or a field's (`field`) type as the code states it,
    // what a call on it resolves through. SQLite cannot widen a CHECK in place: the table is
    // made again with its rows in order.
    "CREATE TABLE edges_new (
        file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
        kind TEXT NOT NULL
            CHECK(kind IN ('import', 'call', 'reference', 'link', 'type', 'field')),
        name TEXT NOT NULL,
        key TEXT NOT NULL,
        line INTEGER NOT NULL
     );
     INSERT INTO edges_new (file_id, kind, name, key, line)
        SELECT file_id, kind, name, key, line FROM edges ORDER BY rowid;
     DROP TABLE edges;
     ALTER TABLE edges_new RENAME TO edges;
     CREATE INDEX idx_edges_file ON edges(file_id);
     CREATE INDEX idx_edges_key ON edges(kind, key);
     CREATE INDEX idx_edges_name ON edges(kind, name);",
    // 14: what read each file (the host's grammars at this build, or a parser component by
    // name and content hash), and the set of readers the last complete pass had: a pass
    // with other readers (a plugin added, removed or upgraded; a newer host) reads again
    // every file whose reader changed, though the file did not. Rows from before have no
    // reader, so the first pass after the upgrade checks them all.
    "ALTER TABLE files ADD COLUMN reader TEXT NOT NULL DEFAULT '';
     ALTER TABLE index_passes ADD COLUMN readers TEXT NOT NULL DEFAULT '';",
    // 15: edges are looked up by name only as calls and by key only as imports and links
    // (`catalog::EdgeLookup`): partial indexes of just those rows, without the kind, in place
    // of the two over every edge (a third of the catalogue's index bytes on a large tree,
    // and as much B-tree work per pass).
    "DROP INDEX idx_edges_name;
     DROP INDEX idx_edges_key;
     CREATE INDEX idx_edges_call_name ON edges(name) WHERE kind = 'call';
     CREATE INDEX idx_edges_import_key ON edges(key) WHERE kind = 'import';
     CREATE INDEX idx_edges_link_key ON edges(key) WHERE kind = 'link';",
    // 16: chunks leave the catalogue. The search index holds what a chunk is and reads its
    // text back from the file (`index::source_text`); a row per chunk here was a fifth of
    // state.db on a large tree and was read only to find a cached preview's file. A file
    // keeps its count of chunks (for status); a cached preview names its file, to go with
    // it. Cached previews are dropped: they are made again on demand.
    "ALTER TABLE files ADD COLUMN chunks INTEGER NOT NULL DEFAULT 0;
     UPDATE files SET chunks = (SELECT count(*) FROM chunks WHERE chunks.file_id = files.id);
     DROP TABLE chunks;
     DELETE FROM chunk_summaries;
     ALTER TABLE chunk_summaries ADD COLUMN path TEXT NOT NULL DEFAULT '';
     CREATE INDEX idx_chunk_summaries_path ON chunk_summaries(path);",
    // 17: a file's definitions and edges are keyed by (file id << 24) | their place in the
    // file (`catalog::ROW_BITS`): they are written, read and deleted a file at a time, and a
    // range of keys finds them without an index of their file (a sixth of state.db on a large
    // tree) or a file column. The catalogue deletes them with their file. Rows of a file id
    // whose keys would not fit (only a planted state.db has one) are not carried over: file ids
    // up to 2^39 - 2 (549755813886) and 2^24 (16777216) rows a file, as `catalog::rows_of`. An edge's kind is
    // a small number (`catalog::EDGE_KINDS`), not its name on each of millions of rows.
    "CREATE TABLE symbols_new (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_lower TEXT NOT NULL,
        kind TEXT NOT NULL,
        container TEXT,
        start_line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        signature TEXT NOT NULL,
        doc TEXT,
        branches INTEGER NOT NULL DEFAULT 0
     );
     INSERT INTO symbols_new
        SELECT (file_id << 24) | seq,
               name, name_lower, kind, container, start_line, end_line, signature, doc, branches
        FROM (SELECT *, row_number() OVER (PARTITION BY file_id ORDER BY id) - 1 AS seq
              FROM symbols WHERE file_id BETWEEN 0 AND 549755813886)
        WHERE seq < 16777216 ORDER BY 1;
     DROP TABLE symbols;
     ALTER TABLE symbols_new RENAME TO symbols;
     CREATE INDEX idx_symbols_name ON symbols(name_lower);
     CREATE TABLE edges_new (
        id INTEGER PRIMARY KEY,
        kind INTEGER NOT NULL CHECK(kind BETWEEN 0 AND 5),
        name TEXT NOT NULL,
        key TEXT NOT NULL,
        line INTEGER NOT NULL
     );
     INSERT INTO edges_new
        SELECT (file_id << 24) | seq,
               CASE kind WHEN 'call' THEN 0 WHEN 'type' THEN 1 WHEN 'import' THEN 2
                         WHEN 'field' THEN 3 WHEN 'link' THEN 4 ELSE 5 END,
               name, key, line
        FROM (SELECT *, row_number() OVER (PARTITION BY file_id ORDER BY rowid) - 1 AS seq
              FROM edges WHERE file_id BETWEEN 0 AND 549755813886)
        WHERE seq < 16777216 ORDER BY 1;
     DROP TABLE edges;
     ALTER TABLE edges_new RENAME TO edges;
     CREATE INDEX idx_edges_call_name ON edges(name) WHERE kind = 0;
     CREATE INDEX idx_edges_import_key ON edges(key) WHERE kind = 2;
     CREATE INDEX idx_edges_link_key ON edges(key) WHERE kind = 4;",
    // 18: the call sites of a name are found in the files the search index says call it
    // (`catalog::calls_named_in`), each read by its range of keys: the index of every call's
    // name was a sixth of state.db on a large tree. A definition's lower-case name is kept
    // only where SQLite's ASCII `lower()` would not make it (`catalog::NAME_KEY`), and the
    // name index is built on that expression.
    "DROP INDEX idx_edges_call_name;
     CREATE TABLE symbols_new (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_lower TEXT,
        kind TEXT NOT NULL,
        container TEXT,
        start_line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        signature TEXT NOT NULL,
        doc TEXT,
        branches INTEGER NOT NULL DEFAULT 0
     );
     INSERT INTO symbols_new
        SELECT id, name, CASE WHEN name_lower = lower(name) THEN NULL ELSE name_lower END,
               kind, container, start_line, end_line, signature, doc, branches
        FROM symbols ORDER BY id;
     DROP TABLE symbols;
     ALTER TABLE symbols_new RENAME TO symbols;
     CREATE INDEX idx_symbols_name ON symbols(coalesce(name_lower, lower(name)));",
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

pub fn run(conn: &mut Connection) -> Result<()> {
    run_to(conn, SCHEMA_VERSION)
}

/// Migrates up to `target` only: how tests build a database "made by the previous version".
fn run_to(conn: &mut Connection, target: u32) -> Result<()> {
    let current: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if current > SCHEMA_VERSION {
        bail!(
            "state.db has schema version {current}, newer than this build's {SCHEMA_VERSION}; \
             upgrade smart-context"
        );
    }
    let pending = MIGRATIONS.iter().enumerate().take(target as usize);
    for (index, sql) in pending.skip(current as usize) {
        let version = index as u32 + 1;
        let tx = conn.transaction()?;
        tx.execute_batch(sql)
            .with_context(|| format!("migration {version}"))?;
        tx.pragma_update(None, "user_version", version)?;
        tx.commit()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrates_from_empty_and_refuses_newer() {
        let mut conn = Connection::open_in_memory().unwrap();
        run(&mut conn).unwrap();
        run(&mut conn).unwrap();
        let v: u32 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(v, SCHEMA_VERSION);
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        assert!(run(&mut conn).is_err());
    }

    /// A database made by version `target`, foreign keys enforced as the store opens it.
    fn at_version(target: u32) -> Connection {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "foreign_keys", true).unwrap();
        run_to(&mut conn, target).unwrap();
        conn
    }

    fn version(conn: &Connection) -> u32 {
        conn.pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap()
    }

    fn count(conn: &Connection, table: &str) -> i64 {
        conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
            .unwrap()
    }

    #[test]
    fn v1_to_v2_keeps_the_journal_and_adds_the_catalogue() {
        let mut conn = Connection::open_in_memory().unwrap();
        run_to(&mut conn, 1).unwrap();
        conn.execute(
            "INSERT INTO transactions (id, intent, state, created_ms) VALUES ('t1', 'fix', 'applied', 1)",
            [],
        )
        .unwrap();
        run_to(&mut conn, 2).unwrap();
        assert_eq!(version(&conn), 2);
        assert_eq!(count(&conn, "transactions"), 1);
        conn.execute(
            "INSERT INTO files (path, hash, size, mtime_ms, kind, indexed_ms) VALUES ('a.rs', 'h', 1, 1, 'code', 1)",
            [],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO edges (file_id, kind, name, key, line) VALUES (1, 'import', 'std::fs', 'fs', 1)",
            [],
        )
        .unwrap();
        let bad = conn.execute(
            "INSERT INTO edges (file_id, kind, name, key, line) VALUES (1, 'bogus', 'x', 'x', 1)",
            [],
        );
        assert!(bad.is_err(), "edge kinds are checked");
    }

    #[test]
    fn v2_to_v3_keeps_the_catalogue_and_adds_evidence_packs() {
        let mut conn = at_version(2);
        conn.execute(
            "INSERT INTO files (path, hash, size, mtime_ms, kind, indexed_ms) VALUES ('a.md', 'h', 1, 1, 'document', 1)",
            [],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO chunks (id, file_id, kind, start_line, end_line, content_hash) VALUES ('c1', 1, 'markdown', 1, 3, 'x')",
            [],
        )
        .unwrap();
        run_to(&mut conn, 3).unwrap();
        assert_eq!(version(&conn), 3);
        assert_eq!(count(&conn, "chunks"), 1);
        conn.execute(
            "INSERT INTO evidence_packs (pack_id, query, options_json, created_at) VALUES ('p', 'q', '{}', 1)",
            [],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO evidence_pack_items (pack_id, role, rank, chunk_id, file_path, kind, section_id, preview)
             VALUES ('p', 'result', 1, 'c1', 'a.md', 'markdown', 's1', 'text')",
            [],
        )
        .unwrap();
        conn.execute("DELETE FROM evidence_packs", []).unwrap();
        assert_eq!(
            count(&conn, "evidence_pack_items"),
            0,
            "items cascade with their pack"
        );
        conn.execute("DELETE FROM files", []).unwrap();
        assert_eq!(count(&conn, "chunks"), 0, "chunks cascade with their file");
    }

    #[test]
    fn v3_to_v4_adds_parse_errors_to_existing_files() {
        let mut conn = Connection::open_in_memory().unwrap();
        run_to(&mut conn, 3).unwrap();
        conn.execute(
            "INSERT INTO files (path, hash, size, mtime_ms, kind, indexed_ms) VALUES ('a.pdf', 'h', 1, 1, 'document', 1)",
            [],
        )
        .unwrap();
        run_to(&mut conn, 4).unwrap();
        assert_eq!(version(&conn), 4);
        let error: Option<String> = conn
            .query_row("SELECT parse_error FROM files", [], |r| r.get(0))
            .unwrap();
        assert_eq!(error, None);
        conn.execute("UPDATE files SET parse_error = 'ENCRYPTED'", [])
            .unwrap();
        assert_eq!(count(&conn, "files"), 1);
    }

    #[test]
    fn v4_to_v5_keeps_packs_and_summaries_with_defaults() {
        let mut conn = Connection::open_in_memory().unwrap();
        run_to(&mut conn, 4).unwrap();
        conn.execute(
            "INSERT INTO evidence_packs (pack_id, query, options_json, created_at) VALUES ('p', 'q', '{}', 1)",
            [],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO evidence_pack_items (pack_id, role, rank, chunk_id, file_path, kind, section_id, preview)
             VALUES ('p', 'result', 1, 'c1', 'a.md', 'markdown', 's1', 'text')",
            [],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO chunk_summaries (chunk_id, style, summary, created_at) VALUES ('c1', 'preview', 's', 1)",
            [],
        )
        .unwrap();
        // Up to v5 only: v12 drops every unsigned pack.
        run_to(&mut conn, 5).unwrap();
        assert_eq!(version(&conn), 5);
        let (salt, meta, shown, hash): (String, String, String, String) = conn
            .query_row(
                "SELECT p.salt, i.meta_json, i.shown, s.content_hash
                 FROM evidence_packs p JOIN evidence_pack_items i USING (pack_id), chunk_summaries s",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .unwrap();
        assert_eq!(
            (salt.as_str(), meta.as_str(), shown.as_str(), hash.as_str()),
            ("", "{}", "", "")
        );
    }

    /// Each edge lookup reads its own partial index, and finds what it found before the
    /// indexes over every edge were dropped.
    #[test]
    fn v14_to_v15_looks_edges_up_by_indexes_of_their_own_rows() {
        use crate::index::catalog::EdgeLookup;
        // The lookups as they were written then (edges had a file column and kinds by name
        // until migration 17).
        let sql = |lookup: EdgeLookup| {
            let (kind, column) = match lookup {
                EdgeLookup::CallsNamed => ("call", "e.name"),
                EdgeLookup::ImportsKeyed => ("import", "e.key"),
                EdgeLookup::LinksKeyed => ("link", "e.key"),
            };
            format!(
                "SELECT f.path, f.language, e.kind, e.name, e.line
                 FROM edges e JOIN files f ON f.id = e.file_id
                 WHERE e.kind = '{kind}' AND {column} = ?1
                 ORDER BY f.path, e.line, e.kind, e.name, e.key LIMIT ?2"
            )
        };
        let mut conn = at_version(14);
        conn.execute(
            "INSERT INTO files (path, hash, size, mtime_ms, kind, indexed_ms) VALUES ('a.py', 'h', 1, 1, 'code', 1)",
            [],
        )
        .unwrap();
        let edges = [
            ("call", "save", "save"),
            ("import", "pkg.models", "models"),
            ("link", "docs/models.md", "models"),
            ("type", "models", "models"),
            ("call", "models", "x"),
        ];
        for (line, (kind, name, key)) in edges.iter().enumerate() {
            conn.execute(
                "INSERT INTO edges (file_id, kind, name, key, line) VALUES (1, ?1, ?2, ?3, ?4)",
                rusqlite::params![kind, name, key, line as i64 + 1],
            )
            .unwrap();
        }
        let found = |conn: &Connection, lookup: EdgeLookup, value: &str| -> Vec<(String, u32)> {
            conn.prepare(&sql(lookup))
                .unwrap()
                .query_map(rusqlite::params![value, 10], |r| Ok((r.get(2)?, r.get(4)?)))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap()
        };
        let lookups = [
            (EdgeLookup::CallsNamed, "save", "idx_edges_call_name"),
            (EdgeLookup::CallsNamed, "models", "idx_edges_call_name"),
            (EdgeLookup::ImportsKeyed, "models", "idx_edges_import_key"),
            (EdgeLookup::LinksKeyed, "models", "idx_edges_link_key"),
        ];
        let before: Vec<_> = lookups
            .iter()
            .map(|(l, v, _)| found(&conn, *l, v))
            .collect();
        run_to(&mut conn, 15).unwrap();
        for ((lookup, value, index), before) in lookups.iter().zip(&before) {
            assert_eq!(&found(&conn, *lookup, value), before, "{lookup:?} {value}");
            let plan = crate::store::query_plan(&conn, &sql(*lookup), rusqlite::params![value, 10]);
            assert!(
                plan.iter().any(|step| step.contains(index)),
                "{lookup:?} reads {plan:?}, not {index}"
            );
        }
        assert_eq!(before[0], [("call".to_string(), 1)]);
        assert_eq!(before[1], [("call".to_string(), 5)]);
        assert_eq!(before[2], [("import".to_string(), 2)]);
        assert_eq!(before[3], [("link".to_string(), 3)]);
    }

    #[test]
    fn v12_to_v13_keeps_edges_in_order_and_takes_type_edges() {
        let mut conn = at_version(12);
        conn.execute(
            "INSERT INTO files (path, hash, size, mtime_ms, kind, indexed_ms) VALUES ('a.py', 'h', 1, 1, 'code', 1)",
            [],
        )
        .unwrap();
        for (kind, name) in [("call", "b"), ("import", "os"), ("call", "a")] {
            conn.execute(
                "INSERT INTO edges (file_id, kind, name, key, line) VALUES (1, ?1, ?2, '', 1)",
                [kind, name],
            )
            .unwrap();
        }
        run_to(&mut conn, 13).unwrap();
        let names: Vec<String> = conn
            .prepare("SELECT name FROM edges ORDER BY rowid")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(names, ["b", "os", "a"]);
        conn.execute(
            "INSERT INTO edges (file_id, kind, name, key, line) VALUES (1, 'field', 'x', 'Foo', 2)",
            [],
        )
        .unwrap();
        let bad = conn.execute(
            "INSERT INTO edges (file_id, kind, name, key, line) VALUES (1, 'bogus', 'x', 'x', 1)",
            [],
        );
        assert!(bad.is_err(), "edge kinds are still checked");
        // The cascade still holds.
        conn.execute("DELETE FROM files", []).unwrap();
        assert_eq!(count(&conn, "edges"), 0);
    }

    #[test]
    fn v15_to_v16_moves_chunk_counts_to_files_and_drops_the_chunk_rows() {
        let mut conn = at_version(15);
        conn.execute_batch(
            "INSERT INTO files (id, path, hash, size, mtime_ms, kind, indexed_ms)
                VALUES (1, 'a.rs', 'h', 1, 1, 'code', 1), (2, 'b.md', 'h', 1, 1, 'document', 1);
             INSERT INTO chunks (id, file_id, kind, start_line, end_line, content_hash)
                VALUES ('c1', 1, 'code', 1, 3, 'x'), ('c2', 1, 'code', 4, 5, 'y');
             INSERT INTO chunk_summaries (chunk_id, style, summary, created_at)
                VALUES ('c1', 'signature', '1| fn a()', 1);",
        )
        .unwrap();
        run_to(&mut conn, 16).unwrap();
        let counts: Vec<(String, i64)> = conn
            .prepare("SELECT path, chunks FROM files ORDER BY path")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(counts, [("a.rs".to_string(), 2), ("b.md".to_string(), 0)]);
        assert!(
            conn.prepare("SELECT 1 FROM chunks").is_err(),
            "the table is gone"
        );
        assert_eq!(
            count(&conn, "chunk_summaries"),
            0,
            "cached previews are made again"
        );
        conn.execute(
            "INSERT INTO chunk_summaries (chunk_id, style, summary, created_at, path)
             VALUES ('c1', 'signature', 's', 1, 'a.rs')",
            [],
        )
        .unwrap();
        conn.execute("DELETE FROM files", []).unwrap();
    }

    #[test]
    fn v16_to_v17_keys_a_file_s_rows_by_the_file_in_their_order() {
        use crate::index::catalog::{EdgeLookup, ROW_BITS, edges_by};
        let mut conn = at_version(16);
        conn.execute_batch(
            "INSERT INTO files (id, path, hash, size, mtime_ms, kind, indexed_ms)
                VALUES (1, 'a.py', 'h', 1, 1, 'code', 1), (2, 'b.py', 'h', 1, 1, 'code', 1);
             INSERT INTO edges (file_id, kind, name, key, line) VALUES
                (2, 'call', 'save', '', 1), (1, 'import', 'pkg.models', 'models', 1),
                (2, 'import', 'os', 'os', 2), (1, 'call', 'save', '', 2), (1, 'call', 'b', '', 3);
             -- A planted file id whose keys would wrap onto file 1's: its rows are not kept.
             INSERT INTO files (id, path, hash, size, mtime_ms, kind, indexed_ms)
                VALUES (1099511627777, 'p.py', 'h', 1, 1, 'code', 1);
             INSERT INTO edges (file_id, kind, name, key, line)
                VALUES (1099511627777, 'call', 'planted', '', 1);
             INSERT INTO symbols (file_id, name, name_lower, kind, start_line, end_line, signature)
                VALUES (2, 'B', 'b', 'class', 1, 2, 'class B'), (1, 'a', 'a', 'function', 1, 1, 'def a()'),
                       (2, 'm', 'm', 'method', 2, 2, 'def m()');",
        )
        .unwrap();
        run_to(&mut conn, 17).unwrap();
        let rows = |table: &str| -> Vec<(i64, i64, String)> {
            conn.prepare(&format!(
                "SELECT id >> {ROW_BITS}, id & ((1 << {ROW_BITS}) - 1), name FROM {table} ORDER BY id"
            ))
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
        };
        let owned = |rows: &[(i64, i64, &str)]| -> Vec<(i64, i64, String)> {
            rows.iter()
                .map(|(f, s, n)| (*f, *s, n.to_string()))
                .collect()
        };
        assert_eq!(
            rows("edges"),
            owned(&[
                (1, 0, "pkg.models"),
                (1, 1, "save"),
                (1, 2, "b"),
                (2, 0, "save"),
                (2, 1, "os")
            ]),
            "each file's edges in the order they were written"
        );
        assert_eq!(
            rows("symbols"),
            owned(&[(1, 0, "a"), (2, 0, "B"), (2, 1, "m")])
        );
        // Every lookup still reads its own partial index.
        for (lookup, value, index) in [
            (EdgeLookup::CallsNamed, "save", "idx_edges_call_name"),
            (EdgeLookup::ImportsKeyed, "models", "idx_edges_import_key"),
            (EdgeLookup::LinksKeyed, "models", "idx_edges_link_key"),
        ] {
            let plan = crate::store::query_plan(&conn, &lookup.sql(), rusqlite::params![value, 10]);
            assert!(
                plan.iter().any(|s| s.contains(index)),
                "{lookup:?}: {plan:?}"
            );
        }
        let calls = edges_by(&conn, EdgeLookup::CallsNamed, "save", 10).unwrap();
        let at: Vec<(&str, &str, u32)> = calls
            .iter()
            .map(|e| (e.kind.as_str(), e.path.as_str(), e.line))
            .collect();
        assert_eq!(at, [("call", "a.py", 2), ("call", "b.py", 1)]);
        let imports = edges_by(&conn, EdgeLookup::ImportsKeyed, "os", 10).unwrap();
        assert_eq!((imports[0].kind.as_str(), imports[0].line), ("import", 2));
    }

    #[test]
    fn v17_to_v18_finds_a_name_s_calls_by_the_files_calling_it_without_an_index_of_names() {
        use crate::index::catalog::{EdgeLookup, ROW_BITS, calls_named_in, edges_by};
        let mut conn = at_version(17);
        conn.execute_batch(&format!(
            "INSERT INTO files (id, path, hash, size, mtime_ms, kind, indexed_ms)
                VALUES (1, 'b.py', 'h', 1, 1, 'code', 1), (2, 'a.py', 'h', 1, 1, 'code', 1),
                       (3, 'c.py', 'h', 1, 1, 'code', 1);
             INSERT INTO edges (id, kind, name, key, line) VALUES
                ((1 << {ROW_BITS}) | 0, 0, 'save', '', 9), ((1 << {ROW_BITS}) | 1, 2, 'save', 'save', 1),
                ((2 << {ROW_BITS}) | 0, 0, 'other', '', 1), ((2 << {ROW_BITS}) | 1, 0, 'save', '', 4),
                ((2 << {ROW_BITS}) | 2, 0, 'save', '', 2), ((3 << {ROW_BITS}) | 0, 0, 'save', '', 1);
             INSERT INTO symbols (id, name, name_lower, kind, start_line, end_line, signature) VALUES
                ((1 << {ROW_BITS}) | 0, 'Save', 'save', 'function', 1, 1, 'def Save()'),
                ((1 << {ROW_BITS}) | 1, 'Ärger', 'ärger', 'class', 2, 3, 'class Ärger');"
        ))
        .unwrap();
        run_to(&mut conn, 18).unwrap();
        // A lower-case name SQLite's `lower()` makes is not kept twice; the index finds both.
        let symbols: Vec<(String, Option<String>)> = conn
            .prepare("SELECT name, name_lower FROM symbols ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(
            symbols,
            [
                ("Save".into(), None),
                ("Ärger".into(), Some("ärger".into()))
            ]
        );
        for lower in ["save", "ärger"] {
            let named = crate::index::catalog::symbols_named(&conn, &[lower.into()], 5).unwrap();
            assert_eq!(named.len(), 1, "{lower}");
        }
        let indexes: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE name = 'idx_edges_call_name'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(indexes, 0);
        let at = |rows: Vec<crate::index::catalog::EdgeRow>| -> Vec<(String, u32)> {
            rows.into_iter().map(|e| (e.path, e.line)).collect()
        };
        let scanned = at(edges_by(&conn, EdgeLookup::CallsNamed, "save", 10).unwrap());
        let owned = |v: &[(&str, u32)]| -> Vec<(String, u32)> {
            v.iter().map(|(p, l)| (p.to_string(), *l)).collect()
        };
        assert_eq!(
            scanned,
            owned(&[("a.py", 2), ("a.py", 4), ("b.py", 9), ("c.py", 1)])
        );
        // The files that call the name, in any order; an unknown path finds nothing.
        let paths: Vec<String> = ["c.py", "gone.py", "a.py", "b.py"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            at(calls_named_in(&conn, "save", &paths, 10).unwrap()),
            scanned
        );
        assert_eq!(
            at(calls_named_in(&conn, "save", &paths, 3).unwrap()),
            scanned[..3]
        );
        assert_eq!(
            at(calls_named_in(&conn, "save", &paths[2..], 10).unwrap()),
            owned(&[("a.py", 2), ("a.py", 4), ("b.py", 9)])
        );
        // Each file's calls are read by its range of keys, not by scanning every edge.
        let sql = crate::index::catalog::calls_named_in_sql();
        let plan =
            crate::store::query_plan(&conn, &sql, rusqlite::params!["[\"a.py\"]", "save", 10]);
        assert!(
            plan.iter()
                .any(|s| s.contains("SEARCH e USING INTEGER PRIMARY KEY")),
            "{plan:?}"
        );
    }
}
