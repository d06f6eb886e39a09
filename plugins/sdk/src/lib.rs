//! The guest-side toolkit every smart-context plugin links: one error type that maps onto the
//! WIT `error` record, strict JSON argument parsing, and the text helpers (numbered previews,
//! unified diffs) that keep pillar responses compact and consistent.
//!
//! Bindings stay in each plugin (`wit_bindgen::generate!` with the plugin's own world), so a
//! parser never links pillar imports; [`impl_error_conversions!`] bridges this crate's
//! [`ToolError`] to a plugin's generated error type.

#[cfg(feature = "zip")]
pub mod archive;
pub mod code;
pub mod doc;
mod error;
pub mod guidance;
pub mod lines;
#[cfg(feature = "zip")]
pub mod opc;
pub mod spec;
#[cfg(feature = "tree-sitter")]
pub mod syntax;
mod text;

pub use error::{ToolError, ToolResult, codes};
pub use text::{
    approx_tokens, decode_text, display_path, iso_time, line_count, numbered_lines, short_preview,
    unified_diff,
};

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Parses tool arguments strictly: unknown fields and wrong types are INVALID_ARGS errors that
/// name the field (`limits.maxChars: invalid type ...`), so an agent can fix its call instead
/// of getting silently ignored input.
pub fn parse_args<T: DeserializeOwned>(args_json: &str) -> ToolResult<T> {
    let trimmed = args_json.trim();
    let source = if trimmed.is_empty() { "{}" } else { trimmed };
    let mut de = serde_json::Deserializer::from_str(source);
    serde_path_to_error::deserialize(&mut de).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        let message = if path == "." || path.is_empty() {
            format!("invalid arguments: {inner}")
        } else {
            format!("invalid arguments: {path}: {inner}")
        };
        ToolError::new(codes::INVALID_ARGS, message)
            .suggest("check the argument names and types against the tool's input schema")
            .details(serde_json::json!({ "field": path }))
    })
}

/// A definition as the index names it (`Container.name`, or `name` at the top level): what
/// `index.call-graph` takes as its symbol and what answers show, so every pillar spells it one
/// way.
pub fn qualified_name(name: &str, container: Option<&str>) -> String {
    match container {
        Some(c) => format!("{c}.{name}"),
        None => name.to_string(),
    }
}

/// A tool call's common path: the arguments parsed strictly into `A` ([`parse_args`]), `run`
/// on them, and its structured response serialized beside its text rendering, as
/// [`export_tool!`] sends them.
pub fn answer<A, R>(
    args_json: &str,
    run: impl FnOnce(A) -> ToolResult<(R, String)>,
) -> ToolResult<(String, String)>
where
    A: DeserializeOwned,
    R: Serialize,
{
    let (response, text) = run(parse_args(args_json)?)?;
    Ok((to_json(&response)?, text))
}

/// Serializes a structured result; failure here is a plugin bug, reported as INTERNAL.
pub fn to_json<T: Serialize>(value: &T) -> ToolResult<String> {
    serde_json::to_string(value)
        .map_err(|err| ToolError::new(codes::INTERNAL, format!("result serialization: {err}")))
}

/// Implements `From` in both directions between [`ToolError`] and a plugin's generated WIT
/// `error` type, so `?` works on host calls and on the plugin's own results.
#[macro_export]
macro_rules! impl_error_conversions {
    ($wit_error:path) => {
        impl From<$crate::ToolError> for $wit_error {
            fn from(err: $crate::ToolError) -> Self {
                let (code, message, suggestion, details_json) = err.into_parts();
                Self {
                    code,
                    message,
                    suggestion,
                    details_json,
                }
            }
        }
        impl From<$wit_error> for $crate::ToolError {
            fn from(err: $wit_error) -> Self {
                $crate::ToolError::from_parts(
                    err.code,
                    err.message,
                    err.suggestion,
                    err.details_json,
                )
            }
        }
    };
}

/// Sends panic messages to `log` (the component's log import) before the instance aborts, so
/// the host's log says why a plugin trapped instead of just that it did.
pub fn install_panic_log(log: fn(&str)) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(move |info| log(&format!("panic: {info}"))));
    });
}
