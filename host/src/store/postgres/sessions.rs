//! MCP sessions in the team database: the `initialize` parameters of each session (as the
//! transport's JSON), so a replica that receives a session it does not hold can restore it.
//! Rows are signed with the deployment's key like every other row; a session untouched for
//! [`SESSION_DAYS`] days is dropped when another is stored.

use super::Postgres;
use crate::store::JournalKey;
use anyhow::Result;
use std::sync::Arc;

/// How long a session no replica stored again is kept.
pub const SESSION_DAYS: i32 = 7;

/// The sessions of one deployment.
#[derive(Clone)]
pub struct Sessions {
    pg: Arc<Postgres>,
    key: JournalKey,
}

fn mac(key: &JournalKey, id: &str, state: &str) -> String {
    key.mac(&[b"mcp-session", id.as_bytes(), state.as_bytes()])
}

impl Sessions {
    pub fn new(pg: Arc<Postgres>, key: JournalKey) -> Self {
        Self { pg, key }
    }

    /// The stored state of session `id`, if a replica of this deployment stored it.
    pub async fn load(&self, id: &str) -> Result<Option<String>> {
        let id_owned = id.to_string();
        let row = self
            .pg
            .spawn(move |pool| async move {
                Ok(pool
                    .get()
                    .await?
                    .query_opt(
                        "UPDATE mcp_sessions SET touched_at = now() WHERE id = $1
                         RETURNING state, mac",
                        &[&id_owned],
                    )
                    .await?)
            })
            .await?;
        let Some(row) = row else { return Ok(None) };
        let (state, stored_mac): (String, String) = (row.get(0), row.get(1));
        if !self.key.verify(
            &[b"mcp-session", id.as_bytes(), state.as_bytes()],
            &stored_mac,
        ) {
            tracing::warn!(
                "MCP session {id} in the team store is not signed with this deployment's key; ignored"
            );
            return Ok(None);
        }
        Ok(Some(state))
    }

    pub async fn store(&self, id: &str, state: &str) -> Result<()> {
        let signed = mac(&self.key, id, state);
        let (id, state) = (id.to_string(), state.to_string());
        self.pg
            .spawn(move |pool| async move {
                let client = pool.get().await?;
                client
                    .execute(
                        "INSERT INTO mcp_sessions (id, state, mac) VALUES ($1, $2, $3)
                         ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state,
                            mac = EXCLUDED.mac, touched_at = now()",
                        &[&id, &state, &signed],
                    )
                    .await?;
                client
                    .execute(
                        "DELETE FROM mcp_sessions
                         WHERE touched_at < now() - make_interval(days => $1)",
                        &[&SESSION_DAYS],
                    )
                    .await?;
                Ok(())
            })
            .await
    }

    pub async fn delete(&self, id: &str) -> Result<()> {
        let id = id.to_string();
        self.pg
            .spawn(move |pool| async move {
                pool.get()
                    .await?
                    .execute("DELETE FROM mcp_sessions WHERE id = $1", &[&id])
                    .await?;
                Ok(())
            })
            .await
    }
}
