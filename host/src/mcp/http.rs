//! Streamable HTTP transport: rmcp's service behind a bearer-token check, with rmcp's `Host`
//! header allowlist (loopback names by default) against DNS rebinding.

use super::Server;
use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::net::SocketAddr;
use std::sync::Arc;

/// The MCP endpoint path.
pub const ENDPOINT: &str = "/mcp";

pub struct HttpOptions {
    pub addr: SocketAddr,
    pub token: String,
    /// None keeps rmcp's loopback-only default.
    pub allowed_hosts: Option<Vec<String>>,
}

/// Serves until `shutdown` resolves. The bound address (useful with port 0) is logged as
/// `listening on http://ADDR/mcp`.
pub async fn serve(
    server: Server,
    options: HttpOptions,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let mut config = StreamableHttpServerConfig::default();
    if let Some(hosts) = options.allowed_hosts {
        config.allowed_hosts = hosts;
    }
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let token: Arc<str> = options.token.into();
    let app = axum::Router::new()
        .nest_service(ENDPOINT, service)
        .layer(axum::middleware::from_fn(
            move |request: Request, next: Next| {
                let token = token.clone();
                async move { require_bearer(&token, request, next).await }
            },
        ));
    let listener = tokio::net::TcpListener::bind(options.addr).await?;
    tracing::info!("listening on http://{}{ENDPOINT}", listener.local_addr()?);
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await?;
    Ok(())
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
