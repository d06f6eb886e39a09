//! `serve --http`: rmcp's streamable HTTP client with the bearer token, and the refusals
//! (no token, wrong token, a Host header off the allowlist).

mod common;

use common::{Fixture, args, serve_http, structured, wait_indexed};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::json;
use std::process::Child;

const TOKEN: &str = "test-token-0123456789";

/// Starts the server on an ephemeral port and returns it with its endpoint URL.
fn start(fx: &Fixture) -> (Child, String) {
    serve_http(fx.command(&["serve", "--http", "127.0.0.1:0", "--token", TOKEN]))
}

#[tokio::test]
async fn rmcp_client_over_http_lists_and_calls_with_the_token() {
    let fx = Fixture::new();
    let (mut child, url) = start(&fx);
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url.as_str()).auth_header(TOKEN),
    );
    let client = ().serve(transport).await.expect("MCP handshake over HTTP");
    wait_indexed(&client).await;
    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 5);
    let result = client
        .call_tool(
            CallToolRequestParams::new("explore")
                .with_arguments(args(json!({ "query": "installer" }))),
        )
        .await
        .unwrap();
    assert_eq!(
        structured(&result)["data"]["docs"][0]["filePath"],
        "docs/guide.md"
    );
    let write = client
        .call_tool(CallToolRequestParams::new("write").with_arguments(args(
            json!({ "intent": "http", "targetPath": "h.txt", "content": "via http" }),
        )))
        .await
        .unwrap();
    assert_eq!(structured(&write)["success"], true);
    assert_eq!(fx.read("h.txt").as_deref(), Some("via http"));
    client.cancel().await.unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
}

#[tokio::test]
async fn http_refuses_missing_or_wrong_tokens_and_foreign_hosts() {
    let fx = Fixture::new();
    let (mut child, url) = start(&fx);
    let http = reqwest::Client::new();
    let init = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "raw", "version": "0" } } });
    let post = |token: Option<&str>, host: Option<&str>| {
        let mut request = http
            .post(&url)
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .body(init.to_string());
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(host) = host {
            request = request.header("Host", host);
        }
        request.send()
    };
    assert_eq!(post(None, None).await.unwrap().status(), 401);
    assert_eq!(post(Some("wrong"), None).await.unwrap().status(), 401);
    let foreign = post(Some(TOKEN), Some("evil.example:80"))
        .await
        .unwrap()
        .status();
    assert!(
        foreign.is_client_error() && foreign != 401,
        "foreign Host got {foreign}"
    );
    let session = post(Some(TOKEN), None).await.unwrap();
    assert_eq!(session.status(), 200);
    // The session's end is answered as the SDKs expect (the Python SDK logs anything but 200
    // and 204 as a failure), and the session is gone after it.
    let id = session.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_string();
    let end = || {
        http.delete(&url)
            .bearer_auth(TOKEN)
            .header("mcp-session-id", &id)
            .header("mcp-protocol-version", "2025-06-18")
            .send()
    };
    assert_eq!(end().await.unwrap().status(), 204);
    let after = http
        .post(&url)
        .bearer_auth(TOKEN)
        .header("Accept", "application/json, text/event-stream")
        .header("Content-Type", "application/json")
        .header("mcp-session-id", &id)
        .header("mcp-protocol-version", "2025-06-18")
        .body(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" }).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(after.status(), 404, "the ended session is gone");
    child.kill().unwrap();
    child.wait().unwrap();
}
