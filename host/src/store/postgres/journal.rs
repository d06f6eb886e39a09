//! The transaction journal in the team database: state.db's rows with the root in every key,
//! signed and checked with the same fields (`store/mod.rs`), and the edit lock as a
//! PostgreSQL advisory lock, so replicas writing one shared working tree never interleave
//! their checks and writes and a change made through one replica is undone through another.

use super::{RootRows, ms};
use crate::store::rows::{EditLock, JournalRows};
use crate::store::{FileRecord, Inauthentic, TxRecord, authentic, mac_fields, signed, state};
use anyhow::{Result, anyhow};

const HEAD: &str = "id, intent, state, created_ms, undoes, redoes, mac";

fn head(row: &tokio_postgres::Row) -> (TxRecord, String) {
    (
        TxRecord {
            id: row.get(0),
            intent: row.get(1),
            state: row.get(2),
            created_ms: row.get::<_, i64>(3).max(0) as u64,
            undoes: row.get(4),
            redoes: row.get(5),
            files: Vec::new(),
        },
        row.get(6),
    )
}

impl RootRows {
    /// A transaction with its files (with their contents, or only the hashes) and its MAC.
    fn read(&self, id: &str, contents: bool) -> Result<Option<(TxRecord, String)>> {
        let (root, id) = (self.root.clone(), id.to_string());
        let found = self.pg.run(move |pool| async move {
            let client = pool.get().await?;
            let Some(head) = client
                .query_opt(
                    &format!("SELECT {HEAD} FROM transactions WHERE root = $1 AND id = $2"),
                    &[&root, &id],
                )
                .await?
            else {
                return Ok(None);
            };
            let files = client
                .query(
                    if contents {
                        "SELECT path, before, before_hash, after, after_hash FROM transaction_files
                         WHERE root = $1 AND tx_id = $2 ORDER BY ord"
                    } else {
                        "SELECT path, NULL::bytea, before_hash, NULL::bytea, after_hash
                         FROM transaction_files WHERE root = $1 AND tx_id = $2 ORDER BY ord"
                    },
                    &[&root, &id],
                )
                .await?;
            Ok(Some((head, files)))
        })?;
        let Some((row, files)) = found else {
            return Ok(None);
        };
        let (mut tx, mac) = head(&row);
        tx.files = files
            .iter()
            .map(|r| FileRecord {
                path: r.get(0),
                before: r.get(1),
                before_hash: r.get(2),
                after: r.get(3),
                after_hash: r.get(4),
            })
            .collect();
        Ok(Some((tx, mac)))
    }

    /// The first id `sql` yields (over `$1` the root and `params`) whose row is signed with
    /// this key, checked on the hashes alone.
    fn first_signed(&self, sql: &'static str, params: Vec<String>) -> Result<Option<String>> {
        let root = self.root.clone();
        let ids: Vec<String> = self.pg.run(move |pool| async move {
            let client = pool.get().await?;
            let mut all: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = vec![&root];
            all.extend(
                params
                    .iter()
                    .map(|p| p as &(dyn tokio_postgres::types::ToSql + Sync)),
            );
            Ok(client
                .query(sql, &all)
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect())
        })?;
        for id in ids {
            if let Some((tx, mac)) = self.read(&id, false)?
                && signed(&self.key, &tx, Some(&mac))
            {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }

    fn count(&self, sql: &'static str, params: Vec<String>) -> Result<u64> {
        let root = self.root.clone();
        self.pg.run(move |pool| async move {
            let client = pool.get().await?;
            let mut all: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = vec![&root];
            all.extend(
                params
                    .iter()
                    .map(|p| p as &(dyn tokio_postgres::types::ToSql + Sync)),
            );
            Ok(client.query_one(sql, &all).await?.get::<_, i64>(0).max(0) as u64)
        })
    }

    /// The advisory lock key of this root's edits.
    fn lock_key(&self) -> i64 {
        let hash = blake3::hash(format!("smart-context edit lock\0{}", self.root).as_bytes());
        i64::from_le_bytes(hash.as_bytes()[..8].try_into().expect("8 bytes"))
    }
}

/// An advisory lock held on a connection of its own, out of the pool: a lock taken on a
/// pooled connection would stay with whoever borrows it next. Dropping it closes the
/// connection, and PostgreSQL releases the lock with it, as it does when a replica dies.
struct AdvisoryLock {
    client: Option<std::sync::Arc<deadpool_postgres::ClientWrapper>>,
    pg: std::sync::Arc<super::Postgres>,
    key: i64,
}

impl crate::store::rows::HeldLock for AdvisoryLock {
    /// The lock lives as long as its connection: one the server closed (restarted, ended it,
    /// or a network cut) may have let another replica take it.
    fn check(&self) -> Result<()> {
        let client = self.client.clone().expect("held until drop");
        if client.is_closed() {
            return Err(anyhow!("its connection to PostgreSQL closed"));
        }
        self.pg.run(move |_| async move {
            client.simple_query("SELECT 1").await?;
            Ok(())
        })
    }
}

impl Drop for AdvisoryLock {
    fn drop(&mut self) {
        let Some(client) = self.client.take() else {
            return;
        };
        let key = self.key;
        // Unlocked before the connection goes, so the next writer need not wait for the
        // server to notice the close; the connection is dropped on the client's runtime.
        let _ = self.pg.run(move |_| async move {
            client
                .execute("SELECT pg_advisory_unlock($1)", &[&key])
                .await?;
            drop(client);
            Ok(())
        });
    }
}

impl JournalRows for RootRows {
    fn begin(&mut self, tx: &TxRecord) -> Result<()> {
        // PostgreSQL's text holds no NUL: an intent carrying one is stored (and signed) with
        // it replaced. Paths cannot hold one.
        let tx = &TxRecord {
            intent: super::no_nul(&tx.intent),
            ..tx.clone()
        };
        let fields = mac_fields(tx);
        let mac = self
            .key
            .mac(&fields.iter().map(Vec::as_slice).collect::<Vec<_>>());
        let (root, tx) = (self.root.clone(), tx.clone());
        self.pg.run(move |pool| async move {
            let mut client = pool.get().await?;
            let db = client.transaction().await?;
            db.execute(
                "INSERT INTO transactions (root, id, intent, state, created_ms, undoes, redoes, mac)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                &[
                    &root,
                    &tx.id,
                    &tx.intent,
                    &state::PENDING,
                    &ms(tx.created_ms),
                    &tx.undoes,
                    &tx.redoes,
                    &mac,
                ],
            )
            .await?;
            let insert = db
                .prepare(
                    "INSERT INTO transaction_files (root, tx_id, ord, path, before, before_hash,
                        after, after_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .await?;
            for (ord, f) in tx.files.iter().enumerate() {
                db.execute(
                    &insert,
                    &[
                        &root,
                        &tx.id,
                        &(ord as i32),
                        &f.path,
                        &f.before,
                        &f.before_hash,
                        &f.after,
                        &f.after_hash,
                    ],
                )
                .await?;
            }
            db.commit().await?;
            Ok(())
        })
    }

    fn set_state(&self, id: &str, state: &str) -> Result<()> {
        let (root, id, state) = (self.root.clone(), id.to_string(), state.to_string());
        self.pg.run(move |pool| async move {
            // Only from pending (every caller's transition): a writer that lost its lock
            // must not mark applied what another replica's recovery rolled back meanwhile.
            let changed = pool
                .get()
                .await?
                .execute(
                    "UPDATE transactions SET state = $3
                     WHERE root = $1 AND id = $2 AND state = $4",
                    &[&root, &id, &state, &state::PENDING],
                )
                .await?;
            anyhow::ensure!(
                changed == 1,
                "transaction {id} is no longer pending (rolled back by another replica's recovery?)"
            );
            Ok(())
        })
    }

    fn finish_pair(&mut self, new: &str, original: &str, original_state: &str) -> Result<()> {
        let root = self.root.clone();
        let (new, original, original_state) = (
            new.to_string(),
            original.to_string(),
            original_state.to_string(),
        );
        self.pg.run(move |pool| async move {
            let mut client = pool.get().await?;
            let db = client.transaction().await?;
            let changed = db
                .execute(
                    "UPDATE transactions SET state = $3 WHERE root = $1 AND id = $2 AND state = $4",
                    &[&root, &new, &state::APPLIED, &state::PENDING],
                )
                .await?;
            anyhow::ensure!(
                changed == 1,
                "transaction {new} is no longer pending (rolled back by another replica's recovery?)"
            );
            db.execute(
                "UPDATE transactions SET state = $3 WHERE root = $1 AND id = $2",
                &[&root, &original, &original_state],
            )
            .await?;
            db.commit().await?;
            Ok(())
        })
    }

    fn latest_undoable(&self) -> Result<Option<String>> {
        self.first_signed(
            "SELECT id FROM transactions WHERE root = $1 AND state = $2 AND undoes IS NULL
             ORDER BY seq DESC LIMIT 50",
            vec![state::APPLIED.into()],
        )
    }

    fn latest_redoable(&self) -> Result<Option<String>> {
        self.first_signed(
            "SELECT x.id FROM transactions u
             JOIN transactions x ON x.root = u.root AND x.id = u.undoes
             WHERE u.root = $1 AND u.state = $2 AND x.state = $3
             ORDER BY u.seq DESC LIMIT 50",
            vec![state::APPLIED.into(), state::UNDONE.into()],
        )
    }

    fn redone_by(&self, id: &str) -> Result<Option<String>> {
        self.first_signed(
            "SELECT r.id FROM transactions r
             JOIN transactions x ON x.root = r.root AND x.id = r.redoes
             WHERE r.root = $1 AND r.redoes = $2 AND x.state = $3
             ORDER BY r.seq DESC LIMIT 50",
            vec![id.into(), state::REDONE.into()],
        )
    }

    fn load(&self, id: &str) -> Result<Option<TxRecord>> {
        let Some((tx, mac)) = self.read(id, true)? else {
            return Ok(None);
        };
        if !authentic(&self.key, &tx, Some(&mac)) {
            return Err(Inauthentic(tx.id).into());
        }
        Ok(Some(tx))
    }

    fn pending(&self) -> Result<Vec<String>> {
        let root = self.root.clone();
        self.pg.run(move |pool| async move {
            Ok(pool
                .get()
                .await?
                .query(
                    "SELECT id FROM transactions WHERE root = $1 AND state = $2 ORDER BY seq",
                    &[&root, &state::PENDING],
                )
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect())
        })
    }

    /// Only rows signed with this root's key: an intent or a path another writer of the
    /// database put there is never shown to the agent.
    fn history(&self, limit: u32, offset: u32) -> Result<Vec<(TxRecord, Vec<String>)>> {
        let root = self.root.clone();
        let (heads, files) = self.pg.run(move |pool| async move {
            let client = pool.get().await?;
            let heads = client
                .query(
                    &format!(
                        "SELECT {HEAD} FROM transactions WHERE root = $1
                         ORDER BY seq DESC LIMIT $2 OFFSET $3"
                    ),
                    &[&root, &(limit as i64), &(offset as i64)],
                )
                .await?;
            let ids: Vec<String> = heads.iter().map(|r| r.get(0)).collect();
            let files = client
                .query(
                    "SELECT tx_id, path, before_hash, after_hash FROM transaction_files
                     WHERE root = $1 AND tx_id = ANY($2) ORDER BY tx_id, ord",
                    &[&root, &ids],
                )
                .await?;
            Ok((heads, files))
        })?;
        let mut by_tx: std::collections::HashMap<String, Vec<FileRecord>> = Default::default();
        for r in &files {
            by_tx.entry(r.get(0)).or_default().push(FileRecord {
                path: r.get(1),
                before: None,
                before_hash: r.get(2),
                after: None,
                after_hash: r.get(3),
            });
        }
        let mut out = Vec::with_capacity(heads.len());
        for row in &heads {
            let (mut tx, mac) = head(row);
            tx.files = by_tx.remove(&tx.id).unwrap_or_default();
            if !signed(&self.key, &tx, Some(&mac)) {
                tracing::warn!(
                    "journal entry {} in the team store is not signed with this root's key; left out of history",
                    tx.id
                );
                continue;
            }
            let paths = tx.files.iter().map(|f| f.path.clone()).collect();
            tx.files.clear();
            out.push((tx, paths));
        }
        Ok(out)
    }

    fn pending_count(&self) -> Result<u64> {
        self.count(
            "SELECT count(*) FROM transactions WHERE root = $1 AND state = $2",
            vec![state::PENDING.into()],
        )
    }

    fn transaction_count(&self) -> Result<u64> {
        self.count(
            "SELECT count(*) FROM transactions WHERE root = $1",
            Vec::new(),
        )
    }

    /// `pg_advisory_lock` on a connection of its own, waited for at most the call timeout.
    fn edit_lock(&self) -> Result<EditLock> {
        let key = self.lock_key();
        let client = self
            .pg
            .run(move |pool| async move {
                let client = deadpool_postgres::Object::take(pool.get().await?);
                // A held lock is waited for less long than a call may take, so the wait ends
                // with PostgreSQL's own timeout, not as a server that stopped answering.
                client
                    .batch_execute(&format!(
                        "SET statement_timeout = {}",
                        super::LOCK_WAIT.as_millis()
                    ))
                    .await?;
                client
                    .execute("SELECT pg_advisory_lock($1)", &[&key])
                    .await?;
                Ok(client)
            })
            .map_err(|e| anyhow!("cannot take the team's edit lock for {}: {e:#}", self.root))?;
        Ok(EditLock(Box::new(AdvisoryLock {
            client: Some(std::sync::Arc::new(client)),
            pg: self.pg.clone(),
            key,
        })))
    }

    fn location(&self) -> String {
        format!("postgres://{}", self.pg.display)
    }

    fn schema_version(&self) -> Result<u32> {
        Ok(super::SCHEMA_VERSION as u32)
    }
}
