//! The explore pillar (ADR-040): one call finds and reads. Paths are read as previews, document
//! sections or (only when asked) in full; a query scans the workspace and returns line previews,
//! documents and code in separate groups. Full reads over their limits fail with status
//! "blocked" instead of returning a silently cut file.

mod args;
mod envelope;
mod find;
mod read;

wit_bindgen::generate!({
    path: "../../wit",
    world: "pillar",
});

use exports::smart_context::plugin::tool::{Guest, ToolOutput, ToolSpec};
use smart_context::plugin::types::Error;

sdk::impl_error_conversions!(Error);

struct Explore;

impl Guest for Explore {
    fn describe() -> ToolSpec {
        ToolSpec {
            name: "explore".to_string(),
            title: "Explore: find and read".to_string(),
            description: "Find and read code and documents in one call. `query` searches the \
                workspace (documents and code grouped apart, line previews); `paths` reads files \
                (numbered preview by default), directories (entries) or markdown documents \
                (section list, or one section with `section`). view=full returns whole files \
                within limits.maxBytes/maxChars, else status blocked. Sensitive files (.env, keys) \
                and binaries need allowSensitive/allowBinary."
                .to_string(),
            input_schema: include_str!("schema/input.json").to_string(),
            output_schema: Some(include_str!("schema/output.json").to_string()),
            read_only: true,
            destructive: false,
            idempotent: true,
        }
    }

    fn call(args_json: String) -> Result<ToolOutput, Error> {
        let response = match sdk::parse_args::<args::ExploreArgs>(&args_json) {
            Ok(args) => run(args),
            Err(err) => envelope::Response::invalid_args(err.message),
        };
        Ok(ToolOutput {
            structured_json: sdk::to_json(&response)?,
            text: response.render(),
        })
    }
}

fn run(args: args::ExploreArgs) -> envelope::Response {
    let started = std::time::Instant::now();
    let mut response = match args.route() {
        Ok(args::Route::Find(query)) => find::run(&args, &query),
        Ok(args::Route::Read(paths)) => read::run(&args, &paths),
        Err(message) => envelope::Response::invalid_args(message),
    };
    response.finish(started.elapsed().as_millis() as u64);
    response
}

export!(Explore);
