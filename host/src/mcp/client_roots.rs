//! The MCP client's own workspace roots (`roots/list`), when the operator allows them
//! (`[client_roots]`): asked for once the session is initialized and again on each
//! `notifications/roots/list_changed`, opened by the host (`app::ClientRootOpener`), and seen
//! by this session only, after the operator's roots.
//!
//! `roots/list` is a server-to-client request, deprecated by SEP-2577 and refused on protocol
//! 2026-07-28: a client of that protocol (or one that declares no roots) gets the operator's
//! roots, and no request.

use crate::app::ClientRootOpener;
use crate::roots::Root;
use crate::runtime::Runtime;
use rmcp::service::{Peer, RoleServer};
use std::sync::{Arc, RwLock};
use std::time::Duration;

/// How long a call waits for a listing in progress before it runs on the roots known.
const LISTING_WAIT: Duration = Duration::from_secs(5);

/// One session's client roots.
pub struct SessionRoots {
    opener: Option<Arc<ClientRootOpener>>,
    roots: RwLock<Vec<Root>>,
    /// Listings in progress.
    pending: tokio::sync::watch::Sender<usize>,
    /// One listing at a time, so a later list never loses to an earlier one.
    listing: Arc<tokio::sync::Mutex<()>>,
}

impl SessionRoots {
    pub fn new(opener: Option<Arc<ClientRootOpener>>) -> Self {
        Self {
            opener,
            roots: RwLock::default(),
            pending: tokio::sync::watch::Sender::new(0),
            listing: Default::default(),
        }
    }

    /// A new session's: the same operator allowance, none of this session's roots.
    pub fn for_another_session(&self) -> Self {
        Self::new(self.opener.clone())
    }

    /// The roots this session's calls see: the operator's, then the client's (once a
    /// listing in progress is in, or has taken too long).
    pub async fn view(&self, runtime: &Runtime) -> Vec<Root> {
        let mut pending = self.pending.subscribe();
        let _ = tokio::time::timeout(LISTING_WAIT, pending.wait_for(|n| *n == 0)).await;
        let mut view = runtime.roots().all();
        view.extend(self.roots.read().unwrap_or_else(|p| p.into_inner()).clone());
        view
    }

    /// Asks the client for its roots and serves those the operator allows, in the
    /// background; nothing when client roots are off or the client declared none.
    pub fn refresh(self: &Arc<Self>, peer: Peer<RoleServer>) {
        let Some(opener) = self.opener.clone() else {
            return;
        };
        if peer
            .peer_info()
            .is_none_or(|info| info.capabilities.roots.is_none())
        {
            return;
        }
        self.pending.send_modify(|n| *n += 1);
        let session = self.clone();
        tokio::spawn(async move {
            let _one_at_a_time = session.listing.clone().lock_owned().await;
            #[allow(deprecated)] // roots/list: for clients of 2025-11-25 and earlier
            let listed = peer.list_roots().await;
            match listed {
                Ok(result) => {
                    #[allow(deprecated)]
                    let pairs: Vec<(String, Option<String>)> =
                        result.roots.into_iter().map(|r| (r.uri, r.name)).collect();
                    let opened = tokio::task::spawn_blocking(move || opener.open(&pairs))
                        .await
                        .unwrap_or_default();
                    *session.roots.write().unwrap_or_else(|p| p.into_inner()) = opened;
                }
                Err(err) => {
                    tracing::warn!("roots/list failed ({err}); this session keeps the roots it had")
                }
            }
            session.pending.send_modify(|n| *n -= 1);
        });
    }
}
