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
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

pub fn run(conn: &mut Connection) -> Result<()> {
    let current: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if current > SCHEMA_VERSION {
        bail!(
            "state.db has schema version {current}, newer than this build's {SCHEMA_VERSION}; \
             upgrade smart-context"
        );
    }
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
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
}
