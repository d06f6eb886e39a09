//! Streamable HTTP transport: rmcp's service behind a bearer-token check, with rmcp's `Host`
//! header allowlist (loopback names by default) against DNS rebinding, rmcp's `Origin` check
//! (no browser page may call it unless the operator allows that origin) and body cap, and an
//! accept loop of its own so that a slow or idle client cannot hold the server: headers must arrive within
//! `header_timeout` (10 s by default), and at most `max_connections` connections are open at once (more
//! are closed at accept, with a warning).

use super::Server;
use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::store::{
    SessionState, SessionStore, SessionStoreError,
};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// How long a client has to send a request's headers before its connection is closed, by
/// default.
pub const DEFAULT_HEADER_TIMEOUT_MS: u64 = 10_000;
/// Connections open at once, by default.
pub const DEFAULT_MAX_CONNECTIONS: usize = 64;

/// The MCP endpoint path.
pub const ENDPOINT: &str = "/mcp";

pub struct HttpOptions {
    pub addr: SocketAddr,
    /// The bearer token every request must carry; None (`serve --no-token`) only on a
    /// loopback address, for tools that cannot send one (the MCP conformance suite).
    pub token: Option<String>,
    /// None keeps rmcp's loopback-only default.
    pub allowed_hosts: Option<Vec<String>>,
    /// `Origin` values accepted from browsers; a request with any other Origin is refused.
    pub allowed_origins: Vec<String>,
    pub max_connections: usize,
    pub header_timeout: Duration,
    /// Team mode: sessions kept in the team database, so a session's calls may land on any
    /// replica (None: sessions live in this process).
    pub sessions: Option<crate::store::postgres::sessions::Sessions>,
}

/// rmcp's session store over the team database: a replica that receives a session id it
/// does not hold loads the session's `initialize` and replays it, so the client never sees
/// a 404 because its load balancer picked another replica.
struct TeamSessions(crate::store::postgres::sessions::Sessions);

#[async_trait::async_trait]
impl SessionStore for TeamSessions {
    async fn load(&self, id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let Some(json) = self.0.load(id).await.map_err(boxed)? else {
            return Ok(None);
        };
        match serde_json::from_str(&json) {
            Ok(state) => Ok(Some(state)),
            Err(err) => {
                tracing::warn!(
                    "MCP session {id} in the team store cannot be read ({err}); ignored"
                );
                Ok(None)
            }
        }
    }

    async fn store(&self, id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let json = serde_json::to_string(state)?;
        self.0.store(id, &json).await.map_err(boxed)
    }

    async fn delete(&self, id: &str) -> Result<(), SessionStoreError> {
        self.0.delete(id).await.map_err(boxed)
    }
}

fn boxed(err: anyhow::Error) -> SessionStoreError {
    format!("{err:#}").into()
}

/// Serves until `shutdown` resolves. The bound address (useful with port 0) is logged as
/// `listening on http://ADDR/mcp`.
pub async fn serve(
    server: Server,
    options: HttpOptions,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(options.addr).await?;
    let local = listener.local_addr()?;
    // Browsers send `Origin`, programs do not: a page on another site must not drive the
    // server through the user's browser, so every Origin is refused unless the operator listed
    // it (rmcp matches scheme, host and port), or it is this server's own loopback origin
    // (which serves no page, so no other site's script can hold it).
    let mut origins = options.allowed_origins;
    if local.ip().is_loopback() {
        let port = local.port();
        origins.extend([
            format!("http://127.0.0.1:{port}"),
            format!("http://localhost:{port}"),
            format!("http://[::1]:{port}"),
        ]);
    }
    // POST bodies are capped like stdio messages.
    let mut config = StreamableHttpServerConfig::default()
        .with_allowed_origins(origins)
        .enforce_origin_validation()
        .with_max_request_body_bytes(super::MAX_MESSAGE_BYTES);
    if let Some(hosts) = options.allowed_hosts {
        config.allowed_hosts = hosts;
    }
    if let Some(sessions) = options.sessions {
        config.session_store = Some(Arc::new(TeamSessions(sessions)));
    }
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let app = axum::Router::new()
        .nest_service(ENDPOINT, service)
        .layer(axum::middleware::from_fn(session_end_answers_no_content));
    let app = match options.token {
        Some(token) => {
            let token: Arc<str> = token.into();
            app.layer(axum::middleware::from_fn(
                move |request: Request, next: Next| {
                    let token = token.clone();
                    async move { require_bearer(&token, request, next).await }
                },
            ))
        }
        None if options.addr.ip().is_loopback() => {
            tracing::warn!(
                "serving HTTP without a bearer token (--no-token): any local process can call the tools"
            );
            app
        }
        None => anyhow::bail!(
            "--no-token is for loopback addresses only (127.0.0.1, ::1), not {}; give a token instead",
            options.addr
        ),
    };
    tracing::info!("listening on http://{local}{ENDPOINT}");
    let slots = Arc::new(tokio::sync::Semaphore::new(options.max_connections.max(1)));
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    tracing::warn!("accept failed: {err}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            tracing::warn!(
                "refusing a connection from {peer}: {} connections are open (the cap)",
                options.max_connections
            );
            drop(stream);
            continue;
        };
        // A response goes out as several small writes (headers, then each SSE event); with
        // Nagle's algorithm the second waits for the client's delayed ACK, 40 ms a call.
        if let Err(err) = stream.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY for {peer}: {err}");
        }
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        let header_timeout = options.header_timeout;
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(stream);
            let served = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(io, service)
                .with_upgrades()
                .await;
            if let Err(err) = served {
                tracing::debug!("connection from {peer} ended: {err}");
            }
            drop(slot);
        });
    }
    Ok(())
}

/// rmcp answers a session's DELETE with 202 Accepted; the MCP Python SDK takes anything but
/// 200 and 204 as a failed session end (and logs it on every one), and the TypeScript SDK
/// accepts any 2xx: a session ended says 204 No Content.
async fn session_end_answers_no_content(request: Request, next: Next) -> Response {
    let delete = request.method() == axum::http::Method::DELETE;
    let response = next.run(request).await;
    if delete && response.status() == StatusCode::ACCEPTED {
        return StatusCode::NO_CONTENT.into_response();
    }
    response
}

async fn require_bearer(token: &str, request: Request, next: Next) -> Response {
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    match presented {
        Some(given) if constant_time_eq(given.as_bytes(), token.as_bytes()) => {
            next.run(request).await
        }
        _ => (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Bearer")],
            "missing or wrong bearer token\n",
        )
            .into_response(),
    }
}

/// Compares without an early exit, so the time taken does not leak how much of a guess matched.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A fresh random token, for when the operator gave none.
pub fn generate_token() -> String {
    format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_comparison() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"abcd"));
        assert_eq!(generate_token().len(), 64);
    }
}
