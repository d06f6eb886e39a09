//! The MCP face: one tool per loaded pillar, described by the component itself, served over
//! stdio (default) or streamable HTTP. Results carry structuredContent and the pillar's compact
//! text; failures are isError results with code, message and suggestion.

pub mod client_roots;
pub mod http;
pub mod logging;
pub mod prompts;
pub mod stdio;

use crate::error::HostError;
use crate::runtime::{Runtime, ToolDescription, ToolOutput};
use crate::tasks::Control;
use crate::tasks::control::ProgressSink;
use rmcp::ServiceExt;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    GetPromptRequestParams, GetPromptResponse, Implementation, ListPromptsResult, ListToolsResult,
    PaginatedRequestParams, ProgressNotificationParam, ProgressToken, ServerCapabilities,
    ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::{Peer, RequestContext, RoleServer};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The MCP server handler; cheap to clone (one per HTTP session). A clone shares the runtime
/// and tools, and starts with no log subscription of its own (it is another client's).
pub struct Server {
    runtime: Arc<Runtime>,
    tools: Arc<Vec<Tool>>,
    /// The forwarder of this client's log messages, once it asked for them.
    log: Arc<std::sync::Mutex<Option<tokio::task::AbortHandle>>>,
    /// The roots this client listed, when the operator lets clients add theirs.
    roots: Arc<client_roots::SessionRoots>,
}

impl Clone for Server {
    fn clone(&self) -> Self {
        Self {
            runtime: self.runtime.clone(),
            tools: self.tools.clone(),
            log: Default::default(),
            roots: Arc::new(self.roots.for_another_session()),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if Arc::strong_count(&self.log) == 1
            && let Some(task) = self.log.lock().unwrap_or_else(|p| p.into_inner()).take()
        {
            task.abort();
        }
    }
}

impl Server {
    pub fn new(runtime: Arc<Runtime>) -> Self {
        let tools = runtime.tools().into_iter().map(mcp_tool).collect();
        Self {
            runtime,
            tools: Arc::new(tools),
            log: Default::default(),
            roots: Arc::new(client_roots::SessionRoots::new(None)),
        }
    }

    /// Serves each client's own workspace roots too (`roots/list`), as `opener` allows.
    pub fn with_client_roots(mut self, opener: crate::app::ClientRootOpener) -> Self {
        self.roots = Arc::new(client_roots::SessionRoots::new(Some(Arc::new(opener))));
        self
    }

    /// Serves MCP on stdin/stdout until the client disconnects, within the limits of
    /// [`stdio`]: bounded in-flight requests, an answer for every message.
    pub async fn serve_stdio(self) -> anyhow::Result<()> {
        let service = self.serve(stdio::stdio(MAX_MESSAGE_BYTES)).await?;
        service.waiting().await?;
        Ok(())
    }

    /// Runs one tool call on a blocking thread (plugin calls are synchronous and bounded by
    /// their epoch deadline) and shapes the MCP result.
    pub async fn call(&self, name: &str, arguments: Option<Map<String, Value>>) -> CallToolResult {
        self.call_with(name, arguments, Control::new()).await
    }

    /// [`Server::call`] under a control the caller cancels and watches progress through.
    pub async fn call_with(
        &self,
        name: &str,
        arguments: Option<Map<String, Value>>,
        control: Control,
    ) -> CallToolResult {
        let args = Value::Object(arguments.unwrap_or_default()).to_string();
        let runtime = self.runtime.clone();
        let name_owned = name.to_string();
        let view = self.roots.view(&runtime).await;
        let outcome = tokio::task::spawn_blocking(move || {
            runtime.call_tool_in_view(&view, &name_owned, &args, &control)
        })
        .await;
        match outcome {
            Ok(Ok(output)) => tool_result(output),
            Ok(Err(err)) => error_result(err),
            Err(join) => error_result(HostError::new(
                crate::error::codes::INTERNAL,
                format!("{name} call failed: {join}"),
            )),
        }
    }
}

/// Forwards a call's progress to the client as notifications/progress, in order, at most one
/// per [`PROGRESS_EVERY`] (the last of a job always), each further than the one before.
fn progress_sink(peer: Peer<RoleServer>, token: ProgressToken) -> ProgressSink {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<ProgressNotificationParam>();
    tokio::spawn(async move {
        while let Some(param) = rx.recv().await {
            if peer.notify_progress(param).await.is_err() {
                break;
            }
        }
    });
    let last: std::sync::Mutex<(Option<std::time::Instant>, u64)> = Default::default();
    Arc::new(move |done: u64, total: Option<u64>, message: &str| {
        let mut last = last.lock().unwrap_or_else(|p| p.into_inner());
        let finished = total == Some(done);
        let due = last.0.is_none_or(|at| at.elapsed() >= PROGRESS_EVERY);
        if (last.0.is_some() && done <= last.1) || !(due || finished) {
            return;
        }
        *last = (Some(std::time::Instant::now()), done);
        let mut param =
            ProgressNotificationParam::new(token.clone(), done as f64).with_message(message);
        if let Some(total) = total {
            param = param.with_total(total as f64);
        }
        let _ = tx.send(param);
    })
}

/// The least time between two progress notifications of one call.
pub const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(200);

/// The largest JSON-RPC message read from stdio (HTTP bodies have the transport's own cap).
pub const MAX_MESSAGE_BYTES: usize = 8 << 20;

/// A plugin's answer as an MCP result. One rule for every tool: an answer whose structured
/// content says `success: false` is a failure (`isError: true`), and its text leads with the
/// code and the suggestion, so a client that shows only the text still tells the agent what
/// to do next.
pub fn tool_result(output: ToolOutput) -> CallToolResult {
    if !output.is_failure() {
        let mut result = CallToolResult::success(vec![ContentBlock::text(output.text)]);
        result.structured_content = Some(output.structured);
        return result;
    }
    let s = &output.structured;
    let field = |k: &str| s.get(k).and_then(Value::as_str);
    let code = field("code")
        .map(str::to_string)
        .or_else(|| field("status").map(str::to_ascii_uppercase))
        .unwrap_or_else(|| "FAILED".into());
    let mut text = lead(&code, field("message"), field("suggestion"));
    if !output.text.is_empty() {
        text.push_str("\n\n");
        text.push_str(&output.text);
    }
    let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
    result.structured_content = Some(output.structured);
    result
}

/// The first lines of a failure's text: `CODE: message` and `suggestion: ...`.
fn lead(code: &str, message: Option<&str>, suggestion: Option<&str>) -> String {
    let mut text = match message {
        Some(m) => format!("{code}: {m}"),
        None => code.to_string(),
    };
    if let Some(s) = suggestion {
        text.push_str(&format!("\nsuggestion: {s}"));
    }
    text
}

/// What a failure looks like in every tool's structured content: the host's errors (any
/// tool), and a plugin's own `success: false` answers, which carry at least these fields.
pub const FAILURE_SCHEMA: &str = r#"{
  "type": "object",
  "required": ["success", "code", "message"],
  "properties": {
    "success": { "const": false },
    "code": { "type": "string" },
    "message": { "type": "string" },
    "suggestion": { "type": "string" },
    "details": { "type": "object", "additionalProperties": true }
  }
}"#;

/// The published outputSchema: the plugin's success schema or [`FAILURE_SCHEMA`], so clients
/// that validate structured content (the TypeScript SDK does, for errors too) accept both.
/// Definitions move to the root, where the success schema's `#/$defs/...` references point.
pub fn output_schema(success: Map<String, Value>) -> Map<String, Value> {
    let mut success = success;
    let mut root = Map::new();
    root.insert("type".into(), "object".into());
    for key in ["$schema", "$defs", "definitions"] {
        if let Some(v) = success.remove(key) {
            root.insert(key.into(), v);
        }
    }
    let failure: Value = serde_json::from_str(FAILURE_SCHEMA).expect("FAILURE_SCHEMA is JSON");
    root.insert("anyOf".into(), json!([success, failure]));
    root
}

/// An isError result: the code, message and suggestion as text and as structured content.
pub fn error_result(err: HostError) -> CallToolResult {
    let text = lead(&err.code, Some(&err.message), err.suggestion.as_deref());
    let mut structured = json!({ "success": false, "code": err.code, "message": err.message });
    if let Some(s) = err.suggestion {
        structured["suggestion"] = s.into();
    }
    // details is an object in every failure (the schema says so): a plugin's other JSON
    // value is wrapped.
    match err.details {
        Some(d @ Value::Object(_)) => structured["details"] = d,
        Some(Value::Null) | None => {}
        Some(other) => structured["details"] = json!({ "value": other }),
    }
    let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
    result.structured_content = Some(structured);
    result
}

fn mcp_tool(t: ToolDescription) -> Tool {
    let schema = |s: &str| -> Arc<Map<String, Value>> {
        match serde_json::from_str(s) {
            Ok(Value::Object(map)) => Arc::new(map),
            _ => Arc::new(Map::from_iter([(
                "type".to_string(),
                Value::from("object"),
            )])),
        }
    };
    let annotations = ToolAnnotations::with_title(t.spec.title.clone())
        .read_only(t.spec.read_only)
        .destructive(t.spec.destructive)
        .idempotent(t.spec.idempotent)
        .open_world(false);
    // Every tool takes `root` (see `crate::roots`), whatever the plugin declared.
    let mut input = Arc::unwrap_or_clone(schema(&t.spec.input_schema));
    if let Value::Object(properties) = input
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()))
    {
        properties.insert(
            crate::roots::ARGUMENT.to_string(),
            crate::roots::schema_property(),
        );
    }
    let mut tool = Tool::new(t.name, t.spec.description.clone(), Arc::new(input))
        .with_title(t.spec.title.clone())
        .with_annotations(annotations);
    if let Some(output) = &t.spec.output_schema {
        let success = Arc::unwrap_or_clone(schema(output));
        tool = tool.with_raw_output_schema(Arc::new(output_schema(success)));
    }
    tool
}

impl ServerHandler for Server {
    #[allow(deprecated)] // logging: for clients of 2025-11-25 and earlier
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_logging()
                .build(),
        )
        .with_server_info(Implementation::new(
            "smart-context",
            env!("CARGO_PKG_VERSION"),
        ))
        .with_instructions(prompts::INSTRUCTIONS)
    }

    async fn on_initialized(&self, context: rmcp::service::NotificationContext<RoleServer>) {
        // A session another replica began and this one restored (team mode): the client's
        // answer to `roots/list` would come back on that replica's stream, so none is asked
        // for; the operator's roots serve it.
        let restored = context
            .extensions
            .get::<rmcp::transport::streamable_http_server::SessionRestoreMarker>()
            .is_some();
        if !restored {
            self.roots.first_listing(&context.peer);
        }
    }

    async fn on_roots_list_changed(&self, context: rmcp::service::NotificationContext<RoleServer>) {
        self.roots.refresh(context.peer);
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(prompts::list()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        prompts::get(&request.name).map(Into::into).ok_or_else(|| {
            ErrorData::invalid_params(
                format!(
                    "unknown prompt {}; prompts/list names the available ones ({})",
                    request.name,
                    prompts::PLAYBOOK
                ),
                None,
            )
        })
    }

    #[allow(deprecated)] // logging/setLevel: for clients of 2025-11-25 and earlier
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let task = logging::forward(context.peer.clone(), request.level);
        let mut current = self.log.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(old) = current.replace(task) {
            old.abort();
        }
        Ok(())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items((*self.tools).clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if !self.tools.iter().any(|t| t.name == request.name) {
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown tool {}; tools/list names the available ones",
                    request.name
                ),
                None,
            ));
        }
        // A call that overtook `initialized` still sees the client's roots.
        self.roots.first_listing(&context.peer);
        // The request's token is cancelled by notifications/cancelled and when the client
        // goes away (the transport closed): either stops the work.
        let mut control = Control::new();
        if let Some(token) = context.meta.get_progress_token() {
            control = control.with_progress(progress_sink(context.peer.clone(), token));
        }
        let watcher = {
            let (ct, control) = (context.ct.clone(), control.clone());
            tokio::spawn(async move {
                ct.cancelled().await;
                tracing::info!("call cancelled by the client; stopping it");
                control.cancel();
            })
        };
        let result = self
            .call_with(&request.name, request.arguments, control)
            .await;
        watcher.abort();
        Ok(result.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::bindings::pillar::exports::smart_context::plugin::tool::ToolSpec;

    #[test]
    fn errors_become_is_error_results_with_code_and_suggestion() {
        let err = HostError::new("NO_MATCH", "nothing matched")
            .suggest("read the file first")
            .details(json!({ "candidates": [] }));
        let result = error_result(err);
        assert_eq!(result.is_error, Some(true));
        let s = result.structured_content.unwrap();
        assert_eq!(
            (s["code"].as_str(), s["suggestion"].as_str()),
            (Some("NO_MATCH"), Some("read the file first"))
        );
        assert_eq!(s["details"], json!({ "candidates": [] }));
        let text = result.content[0].as_text().unwrap().text.clone();
        assert_eq!(
            text,
            "NO_MATCH: nothing matched\nsuggestion: read the file first"
        );
    }

    #[test]
    fn tools_carry_schemas_and_annotations() {
        let spec = ToolSpec {
            name: "explore".into(),
            title: "Explore".into(),
            description: "finds".into(),
            input_schema: r#"{"type":"object","properties":{"query":{"type":"string"}}}"#.into(),
            output_schema: Some(r#"{"type":"object"}"#.into()),
            read_only: true,
            destructive: false,
            idempotent: true,
        };
        let tool = mcp_tool(ToolDescription {
            name: "explore".into(),
            spec,
        });
        assert_eq!(tool.input_schema["properties"]["query"]["type"], "string");
        assert!(tool.output_schema.is_some());
        let a = tool.annotations.unwrap();
        assert_eq!(
            (a.read_only_hint, a.destructive_hint, a.idempotent_hint),
            (Some(true), Some(false), Some(true))
        );
        assert_eq!(tool.title.as_deref(), Some("Explore"));
    }
}
