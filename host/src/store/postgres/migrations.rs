//! The team database's schema, in numbered steps like state.db's (`store/migrations.rs`):
//! never edited once released, applied in order inside one transaction that first takes an
//! advisory lock, so replicas starting together migrate once and none sees half a schema.

use anyhow::{Result, bail};
use deadpool_postgres::Pool;

/// The advisory lock key migrations hold (any constant no other user of the database takes:
/// "smctx" in ASCII).
const MIGRATION_LOCK: i64 = 0x0073_6d63_7478;

/// One entry per schema version; the database's version is how many have run.
const MIGRATIONS: &[&str] = &[
    // 1: evidence packs and their items, and session memory (events, the files each touched,
    // their search terms), each row keyed by its root and signed with the deployment's key;
    // a version per root every write advances in its own transaction, so readers' caches
    // notice any change, in whatever order writers commit.
    "CREATE TABLE evidence_packs (
        root TEXT NOT NULL,
        pack_id TEXT NOT NULL,
        query TEXT NOT NULL,
        options_json TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT,
        degraded_json TEXT,
        salt TEXT NOT NULL,
        mac TEXT NOT NULL,
        PRIMARY KEY (root, pack_id)
     );
     CREATE INDEX evidence_packs_created ON evidence_packs (root, created_at);
     CREATE INDEX evidence_packs_expires ON evidence_packs (root, expires_at);
     CREATE TABLE evidence_pack_items (
        root TEXT NOT NULL,
        pack_id TEXT NOT NULL,
        role TEXT NOT NULL,
        rank BIGINT NOT NULL,
        chunk_id TEXT NOT NULL,
        file_path TEXT NOT NULL,
        kind TEXT NOT NULL,
        section_id TEXT NOT NULL,
        heading_path_json TEXT,
        start_line BIGINT,
        end_line BIGINT,
        preview TEXT NOT NULL,
        content_hash_snapshot TEXT,
        updated_at_snapshot BIGINT,
        scores_json TEXT,
        meta_json TEXT NOT NULL,
        shown TEXT NOT NULL,
        mac TEXT NOT NULL,
        PRIMARY KEY (root, pack_id, role, rank),
        FOREIGN KEY (root, pack_id) REFERENCES evidence_packs ON DELETE CASCADE
     );
     CREATE TABLE memory_events (
        seq BIGSERIAL PRIMARY KEY,
        root TEXT NOT NULL,
        session_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('prompt', 'response', 'tool', 'insight')),
        created_ms BIGINT NOT NULL,
        summary TEXT NOT NULL,
        content TEXT NOT NULL,
        tool TEXT,
        files_json TEXT NOT NULL,
        tags_json TEXT NOT NULL,
        tx_id TEXT,
        source TEXT NOT NULL,
        mac TEXT NOT NULL,
        terms TEXT[] NOT NULL
     );
     CREATE INDEX memory_events_session ON memory_events (root, session_id, seq);
     CREATE INDEX memory_events_root_seq ON memory_events (root, seq);
     CREATE TABLE memory_versions (
        root TEXT PRIMARY KEY,
        version BIGINT NOT NULL
     );
     CREATE INDEX memory_events_created ON memory_events (root, created_ms);
     CREATE INDEX memory_events_terms ON memory_events USING GIN (terms);
     CREATE TABLE memory_files (
        seq BIGINT NOT NULL REFERENCES memory_events ON DELETE CASCADE,
        path TEXT NOT NULL
     );
     CREATE INDEX memory_files_path ON memory_files (path, seq);
     CREATE INDEX memory_files_seq ON memory_files (seq);",
    // 2: MCP sessions, so a session's calls can land on any replica: what its `initialize`
    // said (a replica that does not hold the session replays it), signed like every row.
    "CREATE TABLE mcp_sessions (
        id TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        mac TEXT NOT NULL,
        touched_at TIMESTAMPTZ NOT NULL DEFAULT now()
     );
     CREATE INDEX mcp_sessions_touched ON mcp_sessions (touched_at);",
    // 3: the transaction journal, so a change applied through one replica is undone through
    // another: state.db's rows with the root in every key, and the order they were journaled.
    "CREATE TABLE transactions (
        seq BIGSERIAL NOT NULL,
        root TEXT NOT NULL,
        id TEXT NOT NULL,
        intent TEXT NOT NULL,
        state TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        undoes TEXT,
        redoes TEXT,
        mac TEXT NOT NULL,
        PRIMARY KEY (root, id)
     );
     CREATE INDEX transactions_order ON transactions (root, seq DESC);
     CREATE INDEX transactions_state ON transactions (root, state);
     CREATE INDEX transactions_undoes ON transactions (root, undoes);
     CREATE INDEX transactions_redoes ON transactions (root, redoes);
     CREATE TABLE transaction_files (
        root TEXT NOT NULL,
        tx_id TEXT NOT NULL,
        ord INTEGER NOT NULL,
        path TEXT NOT NULL,
        before BYTEA,
        before_hash TEXT,
        after BYTEA,
        after_hash TEXT,
        PRIMARY KEY (root, tx_id, ord),
        FOREIGN KEY (root, tx_id) REFERENCES transactions ON DELETE CASCADE
     );",
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i32 = MIGRATIONS.len() as i32;

/// Brings the database to [`SCHEMA_VERSION`]; refuses one a newer build migrated further.
pub(super) async fn run(pool: Pool) -> Result<()> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS smart_context_schema (version INTEGER NOT NULL)")
        .await?;
    let found: Option<i32> = tx
        .query_opt("SELECT version FROM smart_context_schema", &[])
        .await?
        .map(|row| row.get(0));
    let version = found.unwrap_or(0);
    if version > SCHEMA_VERSION {
        bail!(
            "the team database is at schema {version}, written by a newer smart-context (this one knows {SCHEMA_VERSION}); upgrade every replica to the same version"
        );
    }
    for step in &MIGRATIONS[version as usize..] {
        tx.batch_execute(step).await?;
    }
    if found.is_none() {
        tx.execute(
            "INSERT INTO smart_context_schema (version) VALUES ($1)",
            &[&SCHEMA_VERSION],
        )
        .await?;
    } else if version < SCHEMA_VERSION {
        tx.execute(
            "UPDATE smart_context_schema SET version = $1",
            &[&SCHEMA_VERSION],
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}
