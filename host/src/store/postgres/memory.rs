//! Session memory rows in the team database: state.db's events and files with the root in
//! every query, and the search terms as a `text[]` under a GIN index where state.db has an
//! FTS5 table. Rows are signed and checked with the same fields (`store/memory.rs`).

use super::{RootRows, ms};
use crate::store::memory::{EventRow, ForgetFilter, NewEvent, json_list, mac_fields, signed_only};
use crate::store::rows::MemoryRows;
use anyhow::{Result, bail};
use std::collections::HashMap;
use tokio_postgres::types::ToSql;

/// Advances the root's memory version inside a writer's transaction (see `data_version`).
const BUMP: &str = "INSERT INTO memory_versions (root, version) VALUES ($1, 1)
                    ON CONFLICT (root) DO UPDATE SET version = memory_versions.version + 1";

const COLUMNS: &str = "seq, session_id, kind, created_ms, summary, content, tool, files_json, \
                       tags_json, tx_id, source, mac";

impl RootRows {
    /// Rows of `sql` (which selects [`COLUMNS`]; `$1` is the root) that verify, in order.
    fn events_where(&self, sql: String, params: Vec<Param>) -> Result<Vec<EventRow>> {
        let root = self.root.clone();
        let rows = self.pg.run(move |pool| async move {
            let client = pool.get().await?;
            let statement = client.prepare_cached(&sql).await?;
            let mut all: Vec<&(dyn ToSql + Sync)> = vec![&root];
            all.extend(params.iter().map(Param::as_sql));
            Ok(client.query(&statement, &all).await?)
        })?;
        let decoded = rows
            .iter()
            .map(|r| {
                let row = EventRow {
                    seq: r.get(0),
                    session_id: r.get(1),
                    kind: r.get(2),
                    created_ms: r.get::<_, i64>(3).max(0) as u64,
                    summary: r.get(4),
                    content: r.get(5),
                    tool: r.get(6),
                    files: json_list(r.get(7)),
                    tags: json_list(r.get(8)),
                    tx_id: r.get(9),
                    source: r.get(10),
                };
                (row, r.get::<_, String>(11))
            })
            .collect();
        Ok(signed_only(&self.key, decoded, "the team store"))
    }

    /// The first column of `sql`'s rows as sequence numbers (`$1` is the root).
    fn seqs_where(&self, sql: &'static str, params: Vec<Param>) -> Result<Vec<i64>> {
        let root = self.root.clone();
        self.pg.run(move |pool| async move {
            let client = pool.get().await?;
            let statement = client.prepare_cached(sql).await?;
            let mut all: Vec<&(dyn ToSql + Sync)> = vec![&root];
            all.extend(params.iter().map(Param::as_sql));
            Ok(client
                .query(&statement, &all)
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect())
        })
    }

    /// Deletes the events matching `condition` (over `$1` the root and `params`).
    fn delete_where(&self, condition: String, params: Vec<Param>) -> Result<u64> {
        let root = self.root.clone();
        self.pg.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            let mut all: Vec<&(dyn ToSql + Sync)> = vec![&root];
            all.extend(params.iter().map(Param::as_sql));
            let gone = tx
                .execute(
                    &format!("DELETE FROM memory_events WHERE root = $1 AND {condition}"),
                    &all,
                )
                .await?;
            if gone > 0 {
                tx.execute(BUMP, &[&root]).await?;
            }
            tx.commit().await?;
            Ok(gone)
        })
    }
}

/// An owned query parameter, moved onto the client's runtime with its query.
enum Param {
    Int(i64),
    Text(String),
    Ints(Vec<i64>),
    Texts(Vec<String>),
}

impl Param {
    fn as_sql(&self) -> &(dyn ToSql + Sync) {
        match self {
            Param::Int(v) => v,
            Param::Text(v) => v,
            Param::Ints(v) => v,
            Param::Texts(v) => v,
        }
    }
}

/// Each term once, in the order given.
fn distinct(terms: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    terms
        .into_iter()
        .filter(|t| !t.is_empty() && seen.insert(t.clone()))
        .collect()
}

impl MemoryRows for RootRows {
    fn insert_events(&mut self, events: &[NewEvent]) -> Result<Vec<i64>> {
        for event in events {
            if !matches!(
                event.row.kind.as_str(),
                "prompt" | "response" | "tool" | "insight"
            ) {
                bail!("unknown memory event type {:?}", event.row.kind);
            }
        }
        let (root, key) = (self.root.clone(), self.key.clone());
        let events = events.to_vec();
        self.pg.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            let insert = tx
                .prepare_cached(
                    "INSERT INTO memory_events (root, session_id, kind, created_ms, summary,
                        content, tool, files_json, tags_json, tx_id, source, mac, terms)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, '', $12)
                     RETURNING seq",
                )
                .await?;
            let sign = tx
                .prepare_cached("UPDATE memory_events SET mac = $1 WHERE seq = $2")
                .await?;
            let touched = tx
                .prepare_cached(
                    "INSERT INTO memory_files (seq, path) SELECT $1, unnest($2::text[])",
                )
                .await?;
            let mut seqs = Vec::with_capacity(events.len());
            for event in &events {
                // PostgreSQL's text holds no NUL: replaced before signing.
                let clean = |s: &String| super::no_nul(s);
                let row = &EventRow {
                    seq: 0,
                    session_id: clean(&event.row.session_id),
                    kind: event.row.kind.clone(),
                    created_ms: event.row.created_ms,
                    summary: clean(&event.row.summary),
                    content: clean(&event.row.content),
                    tool: event.row.tool.as_ref().map(clean),
                    files: event.row.files.iter().map(clean).collect(),
                    tags: event.row.tags.iter().map(clean).collect(),
                    tx_id: event.row.tx_id.as_ref().map(clean),
                    source: clean(&event.row.source),
                };
                let terms = distinct(
                    super::no_nul(&event.terms)
                        .split_whitespace()
                        .map(str::to_string),
                );
                // The MAC covers the sequence number, known only after the insert; no other
                // connection sees the row before it is signed.
                let seq: i64 = tx
                    .query_one(
                        &insert,
                        &[
                            &root,
                            &row.session_id,
                            &row.kind,
                            &ms(row.created_ms),
                            &row.summary,
                            &row.content,
                            &row.tool,
                            &serde_json::to_string(&row.files)?,
                            &serde_json::to_string(&row.tags)?,
                            &row.tx_id,
                            &row.source,
                            &terms,
                        ],
                    )
                    .await?
                    .get(0);
                let stored = EventRow { seq, ..row.clone() };
                let fields = mac_fields(&stored);
                let mac = key.mac(&fields.iter().map(Vec::as_slice).collect::<Vec<_>>());
                tx.execute(&sign, &[&mac, &seq]).await?;
                if !row.files.is_empty() {
                    tx.execute(&touched, &[&seq, &row.files]).await?;
                }
                seqs.push(seq);
            }
            if !seqs.is_empty() {
                let bump = tx.prepare_cached(BUMP).await?;
                tx.execute(&bump, &[&root]).await?;
            }
            tx.commit().await?;
            Ok(seqs)
        })
    }

    fn memory_events(&self, seqs: &[i64]) -> Result<Vec<EventRow>> {
        if seqs.is_empty() {
            return Ok(Vec::new());
        }
        let rows = self.events_where(
            format!("SELECT {COLUMNS} FROM memory_events WHERE root = $1 AND seq = ANY($2)"),
            vec![Param::Ints(seqs.to_vec())],
        )?;
        let mut by_seq: HashMap<i64, EventRow> = rows.into_iter().map(|r| (r.seq, r)).collect();
        Ok(seqs.iter().filter_map(|s| by_seq.remove(s)).collect())
    }

    /// Events holding more of the terms, and rarer ones, first: each term weighs
    /// ln(1 + events / events holding it), a bm25 without lengths (every event holds a term
    /// once), so the ranking reads no counts of its own.
    fn memory_candidates(
        &self,
        terms: &[String],
        counts: &HashMap<String, u64>,
        total: u64,
        limit: usize,
    ) -> Result<Vec<i64>> {
        let (terms, weights): (Vec<String>, Vec<f64>) = distinct(terms.iter().cloned())
            .into_iter()
            .filter_map(|term| {
                let held = *counts.get(&term)?;
                (held > 0).then(|| {
                    let weight = (1.0 + total.max(1) as f64 / held as f64).ln();
                    (term, weight)
                })
            })
            .unzip();
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        let root = self.root.clone();
        self.pg.run(move |pool| async move {
            let client = pool.get().await?;
            let statement = client
                .prepare_cached(
                    "SELECT e.seq FROM memory_events e
                     WHERE e.root = $1 AND e.terms && $2::text[]
                     ORDER BY (SELECT sum(w.weight) FROM unnest($2::text[], $3::float8[])
                                   AS w(term, weight)
                               WHERE w.term = ANY(e.terms)) DESC, e.seq DESC
                     LIMIT $4",
                )
                .await?;
            Ok(client
                .query(&statement, &[&root, &terms, &weights, &(limit as i64)])
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect())
        })
    }

    fn memory_term_counts(&self, terms: &[String]) -> Result<HashMap<String, u64>> {
        let terms = distinct(terms.iter().cloned());
        if terms.is_empty() {
            return Ok(HashMap::new());
        }
        let root = self.root.clone();
        self.pg.run(move |pool| async move {
            let rows = pool
                .get()
                .await?
                .query(
                    "SELECT w.term, count(*) FROM unnest($2::text[]) AS w(term)
                     JOIN memory_events e ON e.root = $1 AND e.terms @> ARRAY[w.term]
                     GROUP BY w.term",
                    &[&root, &terms],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|r| (r.get::<_, String>(0), r.get::<_, i64>(1).max(0) as u64))
                .collect())
        })
    }

    fn memory_count(&self) -> Result<u64> {
        let root = self.root.clone();
        self.pg.run(move |pool| async move {
            let client = pool.get().await?;
            let statement = client
                .prepare_cached("SELECT count(*) FROM memory_events WHERE root = $1")
                .await?;
            Ok(client
                .query_one(&statement, &[&root])
                .await?
                .get::<_, i64>(0)
                .max(0) as u64)
        })
    }

    fn memory_window(&self, session: &str, seq: i64, window: u32) -> Result<Vec<EventRow>> {
        let mut before = self.events_where(
            format!(
                "SELECT {COLUMNS} FROM memory_events WHERE root = $1 AND session_id = $2
                 AND seq <= $3 ORDER BY seq DESC LIMIT $4"
            ),
            vec![
                Param::Text(session.into()),
                Param::Int(seq),
                Param::Int(window as i64 + 1),
            ],
        )?;
        before.reverse();
        let after = self.events_where(
            format!(
                "SELECT {COLUMNS} FROM memory_events WHERE root = $1 AND session_id = $2
                 AND seq > $3 ORDER BY seq LIMIT $4"
            ),
            vec![
                Param::Text(session.into()),
                Param::Int(seq),
                Param::Int(window as i64),
            ],
        )?;
        before.extend(after);
        Ok(before)
    }

    fn memory_turn(&self, session: &str, seq: i64, limit: u32) -> Result<(Option<i64>, Vec<i64>)> {
        let parent = self.seqs_where(
            "SELECT seq FROM memory_events WHERE root = $1 AND session_id = $2 AND seq <= $3
             AND kind = 'prompt' ORDER BY seq DESC LIMIT 1",
            vec![Param::Text(session.into()), Param::Int(seq)],
        )?;
        let Some(&start) = parent.first() else {
            return Ok((None, Vec::new()));
        };
        // Up to the next prompt: the children are the events before the first prompt after
        // the parent.
        let children = self.seqs_where(
            "SELECT seq FROM memory_events WHERE root = $1 AND session_id = $2 AND seq > $3
             AND seq < coalesce((SELECT min(seq) FROM memory_events WHERE root = $1
                                 AND session_id = $2 AND seq > $3 AND kind = 'prompt'),
                                9223372036854775807)
             ORDER BY seq LIMIT $4",
            vec![
                Param::Text(session.into()),
                Param::Int(start),
                Param::Int(limit as i64),
            ],
        )?;
        Ok((Some(start), children))
    }

    fn memory_touching(
        &self,
        files: &[String],
        except: i64,
        limit: u32,
        edits_only: bool,
    ) -> Result<Vec<i64>> {
        if files.is_empty() {
            return Ok(Vec::new());
        }
        let params = vec![
            Param::Texts(files.to_vec()),
            Param::Int(except),
            Param::Int(limit as i64),
        ];
        if edits_only {
            self.seqs_where(
                "SELECT DISTINCT f.seq FROM memory_files f JOIN memory_events e ON e.seq = f.seq
                 WHERE e.root = $1 AND f.path = ANY($2) AND f.seq <> $3 AND e.tx_id IS NOT NULL
                 ORDER BY f.seq DESC LIMIT $4",
                params,
            )
        } else {
            self.seqs_where(
                "SELECT DISTINCT f.seq FROM memory_files f JOIN memory_events e ON e.seq = f.seq
                 WHERE e.root = $1 AND f.path = ANY($2) AND f.seq <> $3
                 ORDER BY f.seq DESC LIMIT $4",
                params,
            )
        }
    }

    fn forget_events(&mut self, filter: &ForgetFilter) -> Result<u64> {
        let mut clauses = Vec::new();
        let mut params = Vec::new();
        // `$1` is the root; each condition takes the next number.
        if !filter.seqs.is_empty() {
            let at = format!("${}", clauses.len() + 2);
            clauses.push(format!("seq = ANY({at})"));
            params.push(Param::Ints(filter.seqs.clone()));
        }
        if let Some(session) = &filter.session_id {
            let at = format!("${}", clauses.len() + 2);
            clauses.push(format!("session_id = {at}"));
            params.push(Param::Text(session.clone()));
        }
        if let Some(before) = filter.before_ms {
            let at = format!("${}", clauses.len() + 2);
            clauses.push(format!("created_ms < {at}"));
            params.push(Param::Int(ms(before)));
        }
        if clauses.is_empty() && !filter.all {
            bail!("forgetting needs ids, a session, an age or all");
        }
        let condition = if clauses.is_empty() {
            "TRUE".to_string()
        } else {
            clauses.join(" AND ")
        };
        self.delete_where(condition, params)
    }

    fn prune_events(&mut self, max_events: u64, max_age_ms: u64, now_ms: u64) -> Result<u64> {
        let mut gone = 0;
        if max_age_ms > 0 {
            gone += self.forget_events(&ForgetFilter {
                before_ms: Some(now_ms.saturating_sub(max_age_ms)),
                ..Default::default()
            })?;
        }
        if max_events > 0 {
            let cut = self.seqs_where(
                "SELECT seq FROM memory_events WHERE root = $1 ORDER BY seq DESC LIMIT 1 OFFSET $2",
                vec![Param::Int(ms(max_events))],
            )?;
            if let Some(&cut) = cut.first() {
                gone += self.delete_where("seq <= $2".into(), vec![Param::Int(cut)])?;
            }
        }
        Ok(gone)
    }

    fn memory_totals(&self) -> Result<(u64, u64, u64, u64)> {
        let root = self.root.clone();
        self.pg.run(move |pool| async move {
            let r = pool
                .get()
                .await?
                .query_one(
                    "SELECT count(*), count(DISTINCT session_id), coalesce(min(created_ms), 0),
                            coalesce(max(created_ms), 0)
                     FROM memory_events WHERE root = $1",
                    &[&root],
                )
                .await?;
            let n = |i: usize| r.get::<_, i64>(i).max(0) as u64;
            Ok((n(0), n(1), n(2), n(3)))
        })
    }

    fn handle(&self) -> Option<Box<dyn MemoryRows + Sync>> {
        Some(Box::new(self.clone()))
    }

    /// The root's version, which every insert and deletion advances in its own
    /// transaction: a change is seen once committed, whichever replica made it and in
    /// whatever order concurrent writers commit.
    fn data_version(&self) -> Result<i64> {
        let root = self.root.clone();
        self.pg.run(move |pool| async move {
            let client = pool.get().await?;
            let statement = client
                .prepare_cached("SELECT version FROM memory_versions WHERE root = $1")
                .await?;
            Ok(client
                .query_opt(&statement, &[&root])
                .await?
                .map_or(0, |r| r.get::<_, i64>(0)))
        })
    }
}
