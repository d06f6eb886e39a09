//! Evidence pack rows in the team database: state.db's tables with the root in every key,
//! signed and checked with the same fields (`store/packs.rs`).

use super::{RootRows, ms};
use crate::store::packs::{Pack, PackItem, head_fields, item_fields, refs, stored_pack_id};
use crate::store::rows::PackRows;
use anyhow::Result;

impl RootRows {
    fn stored(&self, pack_id: &str) -> String {
        stored_pack_id(&self.key, pack_id)
    }
}

impl PackRows for RootRows {
    fn load_pack(&self, pack_id: &str) -> Result<Option<Pack>> {
        let (root, stored, id) = (self.root.clone(), self.stored(pack_id), pack_id.to_string());
        let found = self.pg.run(move |pool| async move {
            let client = pool.get().await?;
            let Some(head) = client
                .query_opt(
                    "SELECT query, options_json, created_at, expires_at, degraded_json, salt, mac
                     FROM evidence_packs WHERE root = $1 AND pack_id = $2",
                    &[&root, &stored],
                )
                .await?
            else {
                return Ok(None);
            };
            let items = client
                .query(
                    "SELECT role, rank, chunk_id, file_path, kind, section_id, heading_path_json,
                            start_line, end_line, preview, content_hash_snapshot,
                            updated_at_snapshot, scores_json, meta_json, shown, mac
                     FROM evidence_pack_items WHERE root = $1 AND pack_id = $2
                     ORDER BY role DESC, rank",
                    &[&root, &stored],
                )
                .await?;
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
            reasons: reasons
                .as_deref()
                .and_then(|j| serde_json::from_str(j).ok())
                .unwrap_or_default(),
            salt: head.get(5),
            items: Vec::with_capacity(items.len()),
        };
        let stored = self.stored(pack_id);
        let mac: String = head.get(6);
        let mut authentic = self
            .key
            .verify(&refs(&head_fields(&stored, &pack, &reasons)), &mac);
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
                heading_path: heading
                    .as_deref()
                    .and_then(|j| serde_json::from_str(j).ok())
                    .unwrap_or_default(),
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
            let mac: String = row.get(15);
            authentic &= self
                .key
                .verify(&refs(&item_fields(&stored, &item, &heading)), &mac);
            pack.items.push(item);
        }
        if !authentic {
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
        self.pg.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            // The head first: a replica saving the same pack at the same moment waits on
            // its row lock, then replaces these items with its own.
            tx.execute(
                "INSERT INTO evidence_packs (root, pack_id, query, options_json, created_at,
                                             expires_at, degraded_json, salt, mac)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                 ON CONFLICT (root, pack_id) DO UPDATE SET query = EXCLUDED.query,
                    options_json = EXCLUDED.options_json, created_at = EXCLUDED.created_at,
                    expires_at = EXCLUDED.expires_at, degraded_json = EXCLUDED.degraded_json,
                    salt = EXCLUDED.salt, mac = EXCLUDED.mac",
                &[
                    &root, &stored, &query, &options, &created, &expires, &reasons, &salt,
                    &head_mac,
                ],
            )
            .await?;
            tx.execute(
                "DELETE FROM evidence_pack_items WHERE root = $1 AND pack_id = $2",
                &[&root, &stored],
            )
            .await?;
            let insert = tx
                .prepare(
                    "INSERT INTO evidence_pack_items (root, pack_id, role, rank, chunk_id,
                        file_path, kind, section_id, heading_path_json, start_line, end_line,
                        preview, content_hash_snapshot, updated_at_snapshot, scores_json,
                        meta_json, shown, mac)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
                             $16, $17, $18)",
                )
                .await?;
            for (item, heading, mac) in &items {
                let (start, end) = (
                    item.range.map(|r| r.0 as i64),
                    item.range.map(|r| r.1 as i64),
                );
                let updated = item.updated_ms.map(ms);
                tx.execute(
                    &insert,
                    &[
                        &root,
                        &stored,
                        &item.role,
                        &(item.rank as i64),
                        &item.chunk_id,
                        &item.path,
                        &item.kind,
                        &item.section_id,
                        heading,
                        &start,
                        &end,
                        &item.preview,
                        &item.content_hash,
                        &updated,
                        &item.scores_json,
                        &item.meta_json,
                        &item.shown,
                        mac,
                    ],
                )
                .await?;
            }
            tx.execute(
                "DELETE FROM evidence_packs WHERE root = $1 AND expires_at IS NOT NULL
                    AND expires_at <= $2 AND pack_id <> $3",
                &[&root, &ms(now), &stored],
            )
            .await?;
            tx.execute(
                "DELETE FROM evidence_packs WHERE root = $1 AND pack_id NOT IN
                    (SELECT pack_id FROM evidence_packs WHERE root = $1
                     ORDER BY created_at DESC LIMIT $2)",
                &[&root, &ms(keep)],
            )
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn mark_shown(&mut self, pack_id: &str, role: &str, shown: &[(u32, String)]) -> Result<()> {
        let (root, stored, role) = (self.root.clone(), self.stored(pack_id), role.to_string());
        let shown: Vec<(i64, String)> = shown.iter().map(|(r, s)| (*r as i64, s.clone())).collect();
        self.pg.run(move |pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            for (rank, what) in &shown {
                tx.execute(
                    "UPDATE evidence_pack_items SET shown = $5
                     WHERE root = $1 AND pack_id = $2 AND role = $3 AND rank = $4",
                    &[&root, &stored, &role, rank, what],
                )
                .await?;
            }
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
}
