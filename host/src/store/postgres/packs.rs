//! Evidence pack rows in the team database: state.db's tables with the root in every key,
//! signed and checked with the same fields (`store/packs.rs`).

use super::{RootRows, ms};
use crate::store::packs::{
    Pack, PackItem, head_fields, item_fields, json_strings, refs, signed_pack, stored_pack_id,
};
use crate::store::rows::PackRows;
use anyhow::Result;

/// `pack` with every NUL in its text replaced (PostgreSQL's text cannot hold one).
fn without_nul(pack: &Pack) -> Pack {
    let clean = |s: &String| super::no_nul(s);
    let opt = |s: &Option<String>| s.as_ref().map(clean);
    Pack {
        pack_id: pack.pack_id.clone(),
        query: clean(&pack.query),
        options_json: clean(&pack.options_json),
        created_ms: pack.created_ms,
        expires_ms: pack.expires_ms,
        reasons: pack.reasons.iter().map(clean).collect(),
        salt: clean(&pack.salt),
        items: pack
            .items
            .iter()
            .map(|i| PackItem {
                role: clean(&i.role),
                rank: i.rank,
                chunk_id: clean(&i.chunk_id),
                path: clean(&i.path),
                kind: clean(&i.kind),
                section_id: clean(&i.section_id),
                heading_path: i.heading_path.iter().map(clean).collect(),
                range: i.range,
                preview: clean(&i.preview),
                content_hash: opt(&i.content_hash),
                updated_ms: i.updated_ms,
                scores_json: opt(&i.scores_json),
                meta_json: clean(&i.meta_json),
                shown: clean(&i.shown),
            })
            .collect(),
    }
}

/// A pack's items as one array per column, for one `unnest` insert.
#[derive(Default)]
struct ItemColumns {
    role: Vec<String>,
    rank: Vec<i64>,
    chunk_id: Vec<String>,
    path: Vec<String>,
    kind: Vec<String>,
    section_id: Vec<String>,
    heading: Vec<Option<String>>,
    start: Vec<Option<i64>>,
    end: Vec<Option<i64>>,
    preview: Vec<String>,
    content_hash: Vec<Option<String>>,
    updated: Vec<Option<i64>>,
    scores: Vec<Option<String>>,
    meta: Vec<String>,
    shown: Vec<String>,
    mac: Vec<String>,
}

impl RootRows {
    fn stored(&self, pack_id: &str) -> String {
        stored_pack_id(&self.key, pack_id)
    }
}

impl PackRows for RootRows {
    fn load_pack(&self, pack_id: &str) -> Result<Option<Pack>> {
        let (root, stored, id) = (self.root.clone(), self.stored(pack_id), pack_id.to_string());
        let found = self.pg.run(move |pool| async move {
            let mut client = pool.get().await?;
            let head = client
                .prepare_cached(
                    "SELECT query, options_json, created_at, expires_at, degraded_json, salt, mac
                     FROM evidence_packs WHERE root = $1 AND pack_id = $2",
                )
                .await?;
            let items = client
                .prepare_cached(
                    "SELECT role, rank, chunk_id, file_path, kind, section_id, heading_path_json,
                            start_line, end_line, preview, content_hash_snapshot,
                            updated_at_snapshot, scores_json, meta_json, shown, mac
                     FROM evidence_pack_items WHERE root = $1 AND pack_id = $2
                     ORDER BY role DESC, rank",
                )
                .await?;
            // One snapshot for the head and its items: a save committing between two reads
            // would pair one save's head with another's items.
            let snapshot = client
                .build_transaction()
                .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .await?;
            let Some(head) = snapshot.query_opt(&head, &[&root, &stored]).await? else {
                return Ok(None);
            };
            let items = snapshot.query(&items, &[&root, &stored]).await?;
            snapshot.commit().await?;
            Ok(Some((head, items)))
        })?;
        let Some((head, items)) = found else {
            return Ok(None);
        };
        let reasons: Option<String> = head.get(4);
        let mut pack = Pack {
            pack_id: id,
            query: head.get(0),
            options_json: head.get(1),
            created_ms: head.get::<_, i64>(2).max(0) as u64,
            expires_ms: head
                .get::<_, Option<i64>>(3)
                .map_or(u64::MAX, |e| e.max(0) as u64),
            reasons: json_strings(&reasons),
            salt: head.get(5),
            items: Vec::with_capacity(items.len()),
        };
        let stored = self.stored(pack_id);
        let mac: String = head.get(6);
        let mut signatures = Vec::with_capacity(items.len());
        for row in items {
            let heading: Option<String> = row.get(6);
            let start: Option<i64> = row.get(7);
            let end: Option<i64> = row.get(8);
            let item = PackItem {
                role: row.get(0),
                rank: row.get::<_, i64>(1).clamp(0, u32::MAX as i64) as u32,
                chunk_id: row.get(2),
                path: row.get(3),
                kind: row.get(4),
                section_id: row.get(5),
                heading_path: json_strings(&heading),
                range: start.zip(end).map(|(s, e)| {
                    (
                        s.clamp(0, u32::MAX as i64) as u32,
                        e.clamp(0, u32::MAX as i64) as u32,
                    )
                }),
                preview: row.get(9),
                content_hash: row.get(10),
                updated_ms: row.get::<_, Option<i64>>(11).map(|v| v.max(0) as u64),
                scores_json: row.get(12),
                meta_json: row.get(13),
                shown: row.get(14),
            };
            signatures.push((heading, row.get::<_, String>(15)));
            pack.items.push(item);
        }
        if !signed_pack(&self.key, &stored, &pack, &reasons, &mac, &signatures) {
            tracing::warn!(
                "an evidence pack in the team store was not signed with this deployment's key; dropped"
            );
            self.delete_pack(pack_id)?;
            return Ok(None);
        }
        Ok(Some(pack))
    }

    fn pack_stamp(&self, pack_id: &str) -> Result<Option<(u64, u64, String)>> {
        let (root, stored) = (self.root.clone(), self.stored(pack_id));
        self.pg.run(move |pool| async move {
            let row = pool
                .get()
                .await?
                .query_opt(
                    "SELECT created_at, expires_at, salt FROM evidence_packs
                     WHERE root = $1 AND pack_id = $2",
                    &[&root, &stored],
                )
                .await?;
            Ok(row.map(|r| {
                (
                    r.get::<_, i64>(0).max(0) as u64,
                    r.get::<_, Option<i64>>(1)
                        .map_or(u64::MAX, |e| e.max(0) as u64),
                    r.get(2),
                )
            }))
        })
    }

    fn delete_pack(&self, pack_id: &str) -> Result<()> {
        let (root, stored) = (self.root.clone(), self.stored(pack_id));
        self.pg.run(move |pool| async move {
            pool.get()
                .await?
                .execute(
                    "DELETE FROM evidence_packs WHERE root = $1 AND pack_id = $2",
                    &[&root, &stored],
                )
                .await?;
            Ok(())
        })
    }

    fn save_pack(&mut self, pack: &Pack, now: u64, keep: u64) -> Result<()> {
        // PostgreSQL's text holds no NUL: replaced before signing, so what is stored verifies.
        let pack = &without_nul(pack);
        let root = self.root.clone();
        let stored = self.stored(&pack.pack_id);
        let reasons =
            (!pack.reasons.is_empty()).then(|| serde_json::json!(pack.reasons).to_string());
        let head_mac = self.key.mac(&refs(&head_fields(&stored, pack, &reasons)));
        let items: Vec<(PackItem, Option<String>, String)> = pack
            .items
            .iter()
            .map(|item| {
                let heading = (!item.heading_path.is_empty())
                    .then(|| serde_json::json!(item.heading_path).to_string());
                let mac = self.key.mac(&refs(&item_fields(&stored, item, &heading)));
                (item.clone(), heading, mac)
            })
            .collect();
        let (query, options, salt) = (
            pack.query.clone(),
            pack.options_json.clone(),
            pack.salt.clone(),
        );
        let (created, expires) = (ms(pack.created_ms), ms(pack.expires_ms));
        // The items as columns, inserted by one statement: a round trip per item would cost
        // more than the rest of the call.
        let mut cols = ItemColumns::default();
        for (item, heading, mac) in items {
            cols.role.push(item.role);
            cols.rank.push(item.rank as i64);
            cols.chunk_id.push(item.chunk_id);
            cols.path.push(item.path);
            cols.kind.push(item.kind);
            cols.section_id.push(item.section_id);
            cols.heading.push(heading);
            cols.start.push(item.range.map(|r| r.0 as i64));
            cols.end.push(item.range.map(|r| r.1 as i64));
            cols.preview.push(item.preview);
            cols.content_hash.push(item.content_hash);
            cols.updated.push(item.updated_ms.map(ms));
            cols.scores.push(item.scores_json);
            cols.meta.push(item.meta_json);
            cols.shown.push(item.shown);
            cols.mac.push(mac);
        }
        self.pg.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            // The head first: a replica saving the same pack at the same moment waits on
            // its row lock, then replaces these items with its own.
            let upsert = tx
                .prepare_cached(
                    "INSERT INTO evidence_packs (root, pack_id, query, options_json, created_at,
                                                 expires_at, degraded_json, salt, mac)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                     ON CONFLICT (root, pack_id) DO UPDATE SET query = EXCLUDED.query,
                        options_json = EXCLUDED.options_json, created_at = EXCLUDED.created_at,
                        expires_at = EXCLUDED.expires_at, degraded_json = EXCLUDED.degraded_json,
                        salt = EXCLUDED.salt, mac = EXCLUDED.mac",
                )
                .await?;
            tx.execute(
                &upsert,
                &[
                    &root, &stored, &query, &options, &created, &expires, &reasons, &salt,
                    &head_mac,
                ],
            )
            .await?;
            let clear = tx
                .prepare_cached("DELETE FROM evidence_pack_items WHERE root = $1 AND pack_id = $2")
                .await?;
            tx.execute(&clear, &[&root, &stored]).await?;
            let insert = tx
                .prepare_cached(
                    "INSERT INTO evidence_pack_items (root, pack_id, role, rank, chunk_id,
                        file_path, kind, section_id, heading_path_json, start_line, end_line,
                        preview, content_hash_snapshot, updated_at_snapshot, scores_json,
                        meta_json, shown, mac)
                     SELECT $1, $2, * FROM unnest($3::text[], $4::bigint[], $5::text[],
                        $6::text[], $7::text[], $8::text[], $9::text[], $10::bigint[],
                        $11::bigint[], $12::text[], $13::text[], $14::bigint[], $15::text[],
                        $16::text[], $17::text[], $18::text[])",
                )
                .await?;
            tx.execute(
                &insert,
                &[
                    &root,
                    &stored,
                    &cols.role,
                    &cols.rank,
                    &cols.chunk_id,
                    &cols.path,
                    &cols.kind,
                    &cols.section_id,
                    &cols.heading,
                    &cols.start,
                    &cols.end,
                    &cols.preview,
                    &cols.content_hash,
                    &cols.updated,
                    &cols.scores,
                    &cols.meta,
                    &cols.shown,
                    &cols.mac,
                ],
            )
            .await?;
            tx.commit().await?;
            // Pruning runs after the commit and skips rows other savers hold: deleting other
            // packs inside the transaction above would take their locks in no set order, and
            // two replicas saving at once would deadlock (PostgreSQL breaks that after its
            // deadlock_timeout, a second, by failing one of them).
            let expired = client
                .prepare_cached(
                    "DELETE FROM evidence_packs WHERE (root, pack_id) IN
                        (SELECT root, pack_id FROM evidence_packs WHERE root = $1
                            AND expires_at IS NOT NULL AND expires_at <= $2 AND pack_id <> $3
                         FOR UPDATE SKIP LOCKED)",
                )
                .await?;
            client
                .execute(&expired, &[&root, &ms(now), &stored])
                .await?;
            // All but the newest `keep`, found by walking the (root, created_at) index.
            let oldest = client
                .prepare_cached(
                    "DELETE FROM evidence_packs WHERE (root, pack_id) IN
                        (SELECT root, pack_id FROM evidence_packs WHERE root = $1 AND created_at <
                            (SELECT created_at FROM evidence_packs WHERE root = $1
                             ORDER BY created_at DESC OFFSET $2::bigint - 1 LIMIT 1)
                         FOR UPDATE SKIP LOCKED)",
                )
                .await?;
            client.execute(&oldest, &[&root, &ms(keep)]).await?;
            Ok(())
        })
    }

    fn mark_shown(&mut self, pack_id: &str, role: &str, shown: &[(u32, String)]) -> Result<()> {
        let (root, stored, role) = (self.root.clone(), self.stored(pack_id), role.to_string());
        let ranks: Vec<i64> = shown.iter().map(|(r, _)| *r as i64).collect();
        let whats: Vec<String> = shown.iter().map(|(_, s)| super::no_nul(s)).collect();
        self.pg.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            // The pack's head first, as a save takes it: item rows locked in two orders by a
            // save and a marking would deadlock.
            let head = tx
                .prepare_cached(
                    "SELECT 1 FROM evidence_packs WHERE root = $1 AND pack_id = $2 FOR UPDATE",
                )
                .await?;
            tx.execute(&head, &[&root, &stored]).await?;
            let update = tx
                .prepare_cached(
                    "UPDATE evidence_pack_items i SET shown = s.what
                     FROM unnest($4::bigint[], $5::text[]) AS s(rank, what)
                     WHERE i.root = $1 AND i.pack_id = $2 AND i.role = $3 AND i.rank = s.rank",
                )
                .await?;
            tx.execute(&update, &[&root, &stored, &role, &ranks, &whats])
                .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn pack_count(&self) -> Result<u64> {
        let root = self.root.clone();
        self.pg.run(move |pool| async move {
            let row = pool
                .get()
                .await?
                .query_one(
                    "SELECT count(*) FROM evidence_packs WHERE root = $1",
                    &[&root],
                )
                .await?;
            Ok(row.get::<_, i64>(0).max(0) as u64)
        })
    }

    fn shared(&self) -> bool {
        true
    }

    fn handle(&self) -> Option<Box<dyn PackRows + Sync>> {
        Some(Box::new(self.clone()))
    }
}
