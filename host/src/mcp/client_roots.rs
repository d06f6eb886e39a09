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
/// How long the client has to answer `roots/list`.
const LIST_TIMEOUT: Duration = Duration::from_secs(10);
/// A `roots/list` the transport dropped is asked again this many times, this far apart.
const LIST_RETRIES: usize = 2;
const LIST_RETRY_PAUSE: Duration = Duration::from_millis(100);

/// One session's client roots.
pub struct SessionRoots {
    opener: Option<Arc<ClientRootOpener>>,
    roots: RwLock<Vec<Root>>,
    /// Listings in progress.
    pending: tokio::sync::watch::Sender<usize>,
    /// One listing at a time, so a later list never loses to an earlier one.
    listing: Arc<tokio::sync::Mutex<()>>,
    /// The first listing was asked for (at `initialized`, or by a call that came first).
    asked: std::sync::atomic::AtomicBool,
}

/// Counts a listing as done however its task ends.
struct Done(tokio::sync::watch::Sender<usize>);

impl Drop for Done {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n = n.saturating_sub(1));
    }
}

impl SessionRoots {
    pub fn new(opener: Option<Arc<ClientRootOpener>>) -> Self {
        Self {
            opener,
            roots: RwLock::default(),
            pending: tokio::sync::watch::Sender::new(0),
            listing: Default::default(),
            asked: Default::default(),
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

    /// The session's first listing, unless one was asked for already: at `initialized`,
    /// or by the first call if it came before.
    pub fn first_listing(self: &Arc<Self>, peer: &Peer<RoleServer>) {
        if !self.asked.swap(true, std::sync::atomic::Ordering::SeqCst) {
            self.refresh(peer.clone());
        }
    }

    /// Asks the client for its roots and serves those the operator allows, in the
    /// background; nothing when client roots are off, the client declared none, or its
    /// protocol forbids server requests (2026-07-28).
    pub fn refresh(self: &Arc<Self>, peer: Peer<RoleServer>) {
        self.asked.store(true, std::sync::atomic::Ordering::SeqCst);
        let Some(opener) = self.opener.clone() else {
            return;
        };
        let Some(info) = peer.peer_info() else {
            return;
        };
        let forbidden = rmcp::model::ProtocolVersion::V_2026_07_28;
        if info.capabilities.roots.is_none() || info.protocol_version.as_str() >= forbidden.as_str()
        {
            return;
        }
        self.pending.send_modify(|n| *n += 1);
        let done = Done(self.pending.clone());
        let session = self.clone();
        tokio::spawn(async move {
            let _done = done;
            let _one_at_a_time = session.listing.clone().lock_owned().await;
            #[allow(deprecated)] // roots/list: for clients of 2025-11-25 and earlier
            let mut listed = tokio::time::timeout(LIST_TIMEOUT, peer.list_roots()).await;
            // A listing the transport dropped is asked again, a few times, before the session
            // goes on without its roots (seen once under load, at a session's start, where the
            // client answered the next one); a transport really closed fails again at once.
            for _ in 0..LIST_RETRIES {
                if !matches!(listed, Ok(Err(rmcp::ServiceError::TransportClosed))) {
                    break;
                }
                tokio::time::sleep(LIST_RETRY_PAUSE).await;
                #[allow(deprecated)]
                let again = tokio::time::timeout(LIST_TIMEOUT, peer.list_roots()).await;
                listed = again;
            }
            match listed {
                Err(_) => tracing::warn!(
                    "the client did not answer roots/list within {} s; this session keeps the roots it had",
                    LIST_TIMEOUT.as_secs()
                ),
                Ok(Err(err)) => {
                    tracing::warn!("roots/list failed ({err}); this session keeps the roots it had")
                }
                Ok(Ok(result)) => {
                    #[allow(deprecated)]
                    let pairs: Vec<(String, Option<String>)> =
                        result.roots.into_iter().map(|r| (r.uri, r.name)).collect();
                    let opened = tokio::task::spawn_blocking(move || opener.open(&pairs))
                        .await
                        .unwrap_or_default();
                    *session.roots.write().unwrap_or_else(|p| p.into_inner()) = opened;
                }
            }
        });
    }
}
