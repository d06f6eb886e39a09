//! The explore pillar (ADR-040, ADR-038): one call finds and reads. A query searches the
//! index (documents and code in their own groups, extractive previews); paths read files,
//! directories and document sections; view=full reads whole files within limits or fails
//! with status "blocked", never a silently cut file. Every call works on an evidence pack:
//! a follow-up with its packId pages on with cursors and sends what the agent has already
//! seen by reference only.

mod args;
mod content;
mod document_text;
mod envelope;
mod find;
mod key;
mod memory;
mod meta;
mod page;
mod read;
mod session;
mod show;
mod stale;

wit_bindgen::generate!({
    path: "../../wit",
    world: "pillar",
});

use smart_context::plugin::log;
use smart_context::plugin::types::Error;

sdk::impl_error_conversions!(Error);

/// What the tool is, declared in the component too (see sdk::spec): the host lists it
/// before compiling it.
const SPEC: sdk::spec::Tool = sdk::spec::Tool {
    name: "explore",
    title: "Explore: find and read",
    description: "Find and read code and documents. `query` searches (documents and code \
            in separate groups, ranked previews); `paths` reads files (code as its \
            skeleton, documents as their section outline), directories, a document \
            `section` or line `regions`. Each answer has a packId: pass it back with \
            `cursor` to page on. Sensitive files (.env, keys), binaries and globs \
            (src/**/*.rs) need allowSensitive, allowBinary, allowGlobs.",
    input_schema: include_str!("schema/input.json"),
    output_schema: Some(include_str!("schema/output.json")),
    read_only: true,
    destructive: false,
    idempotent: true,
};
sdk::export_tool!(SPEC, call);

/// The call: every outcome, invalid arguments too, is an envelope (statuses, not errors).
fn call(args_json: &str) -> sdk::ToolResult<(String, String)> {
    let response = match sdk::parse_args::<args::ExploreArgs>(args_json) {
        Ok(args) => run(args),
        Err(err) => envelope::Response::invalid_args(err.message),
    };
    Ok((sdk::to_json(&response)?, response.render()))
}

fn run(args: args::ExploreArgs) -> envelope::Response {
    let clock = page::Clock::start(args.timeout_ms());
    if args.memory_only() {
        let mut response = envelope::Response::ok();
        match memory::show(args.memory.as_ref().expect("memory_only has memory")) {
            Ok(group) => response.data.memory = Some(group),
            Err(err) => response = envelope::Response::from_error(err),
        }
        response.finish(clock.elapsed_ms());
        return response;
    }
    let mut response = match session::open(&args) {
        Ok(session) => {
            let opened_ms = clock.elapsed_ms();
            let mut response = page::render(&args, session, &clock);
            response.stats.insert("packMs".into(), opened_ms.into());
            response
        }
        Err(response) => *response,
    };
    if response.success
        && args.wants_memory()
        && let Some(query) = args.query()
    {
        let options = args.memory.clone().unwrap_or_default();
        match memory::smart_search(query, &options) {
            Ok(group) => response.data.memory = Some(group),
            Err(err) => response.degrade(&format!("memory_unavailable: {}", err.message)),
        }
    }
    response.finish(clock.elapsed_ms());
    response
}

/// A warning into the host's log.
pub(crate) fn log_warn(message: &str) {
    log::log(log::Level::Warn, message);
}
