//! The host's costs, measured (run with `cargo bench -p smart-context --bench host`):
//! startup with all plugins (compiling vs from the cache), one pillar call in process (fresh
//! instance + call) against a native no-op handler, and the MCP round trip through the real
//! binary over stdio. Medians of many runs, in one process, so ratios hold on a noisy machine.

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use smart_context::app::{self, OpenOptions};
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_smart-context");

fn main() {
    let root = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("a.rs"), "pub fn a() -> u32 {\n    1\n}\n").unwrap();
    std::fs::write(root.path().join("README.md"), "# Demo\n\n## Part\n\ntext\n").unwrap();
    let config = write_config(cache.path());
    let options = OpenOptions {
        root: root.path().to_path_buf(),
        config: Some(config.clone()),
        ..OpenOptions::default()
    };

    println!(
        "smart-context host benchmark (medians; {} cores)\n",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );

    // Startup: plugins are declared from their headers at once (tools listed); compiling
    // them (a cold cache) or loading their artifacts (a warm one) follows, on demand.
    let declared = median(3, || {
        std::fs::remove_dir_all(cache.path()).ok();
        time(|| drop(app::open(&options).unwrap()))
    });
    let cold = median(3, || {
        std::fs::remove_dir_all(cache.path()).ok();
        time(|| app::open(&options).unwrap().compile_all())
    });
    let warm = median(20, || time(|| app::open(&options).unwrap().compile_all()));
    let runtime = app::open(&options).unwrap();
    runtime.compile_all();
    let plugin_ms: f64 = runtime.plugins().iter().map(|p| p.load_ms).sum();
    let n = runtime.plugins().len();
    println!(
        "startup to tools listed, {n} plugins:  {:>9.1} ms  (empty cache; nothing compiled yet)",
        ms(declared)
    );
    println!(
        "startup, {n} plugins, compiling:        {:>9.1} ms",
        ms(cold)
    );
    println!(
        "startup, {n} plugins, from cache:       {:>9.1} ms  (per-plugin loads sum to {plugin_ms:.1} ms in one run)",
        ms(warm)
    );

    // One call in process: fresh instance from the InstancePre, call, result checks.
    let args = r#"{"paths":["a.rs"]}"#;
    let wasm_call = median(2_000, || {
        time(|| drop(black_box(runtime.call_tool("explore", args).unwrap())))
    });
    let outline_call = median(2_000, || {
        time(|| {
            drop(black_box(
                runtime
                    .call_tool("understand", r#"{"goal":"a.rs"}"#)
                    .unwrap(),
            ))
        })
    });
    let native = median(2_000, || {
        time(|| drop(black_box(native_noop(black_box(args)))))
    });
    println!(
        "explore call (fresh instance + call):  {:>9.1} µs",
        us(wasm_call)
    );
    println!(
        "understand call (fresh instance):      {:>9.1} µs",
        us(outline_call)
    );
    println!(
        "native no-op handler (JSON in/out):    {:>9.2} µs  (explore call = {:.0}x)",
        us(native),
        wasm_call.as_secs_f64() / native.as_secs_f64()
    );

    // MCP round trip through the release binary over stdio.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (round_trip, list) = rt.block_on(async {
        let mut command = tokio::process::Command::new(BIN);
        command
            .arg("--root")
            .arg(root.path())
            .arg("--config")
            .arg(&config)
            .arg("serve")
            .env("SMART_CONTEXT_LOG", "warn");
        let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();
        let arguments =
            serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(args).unwrap();
        let mut calls = Vec::new();
        for _ in 0..500 {
            let started = Instant::now();
            client
                .call_tool(CallToolRequestParams::new("explore").with_arguments(arguments.clone()))
                .await
                .unwrap();
            calls.push(started.elapsed());
        }
        let mut lists = Vec::new();
        for _ in 0..500 {
            let started = Instant::now();
            client.list_all_tools().await.unwrap();
            lists.push(started.elapsed());
        }
        client.cancel().await.unwrap();
        (median_of(calls), median_of(lists))
    });
    println!(
        "MCP round trip, tools/call explore:    {:>9.1} µs  (transport share {:.1} µs)",
        us(round_trip),
        us(round_trip.saturating_sub(wasm_call))
    );
    println!(
        "MCP round trip, tools/list:            {:>9.1} µs",
        us(list)
    );
}

/// The operator config for the bench root (beside the cache, outside the root): its own
/// component cache directory inside it.
fn write_config(cache: &Path) -> std::path::PathBuf {
    let path = cache.with_extension("toml");
    std::fs::write(
        &path,
        format!("cache_dir = {:?}\n", cache.join("components")),
    )
    .unwrap();
    path
}

/// What a native handler minimally does per call: parse the arguments, build and serialize a result.
fn native_noop(args: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(args).unwrap();
    serde_json::json!({ "success": true, "status": "ok", "echo": value }).to_string()
}

fn time(f: impl FnOnce()) -> Duration {
    let started = Instant::now();
    f();
    started.elapsed()
}

fn median(runs: usize, mut f: impl FnMut() -> Duration) -> Duration {
    median_of((0..runs).map(|_| f()).collect())
}

fn median_of(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
