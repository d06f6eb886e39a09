//! The `smart-context` command: serve MCP (stdio or HTTP), call a tool once, list plugins,
//! show status.

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use smart_context::app::{self, OpenOptions};
use smart_context::index::{Index, Report};
use smart_context::mcp::{self, Server, http};
use smart_context::setup;
use std::io::{IsTerminal, Read, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::prelude::*;

#[derive(Parser)]
#[command(
    name = "smart-context",
    version,
    about = "MCP server for coding agents: find, read, understand and safely change a codebase; every tool a sandboxed wasm component"
)]
struct Cli {
    /// The workspace root every path is relative to. Repeat it to serve several (each with
    /// its own index, journal and memory; tools then take `root`, a root's directory name).
    /// Default: the operator config's `[[roots]]`, else the current directory.
    #[arg(
        long,
        global = true,
        env = "SMART_CONTEXT_ROOT",
        action = clap::ArgAction::Append
    )]
    root: Vec<PathBuf>,
    /// The operator's policy file (default: ~/.config/smart-context/config.toml, plus the
    /// root's smart-context.toml: all of it once trusted with `trust`, else its [index] only).
    #[arg(long, global = true, env = "SMART_CONTEXT_CONFIG")]
    config: Option<PathBuf>,
    /// Team mode: the PostgreSQL database (`postgres://user@host:port/db`) where replicas
    /// share evidence packs and session memory; overrides `[store] url`.
    #[arg(
        long,
        global = true,
        env = "SMART_CONTEXT_STORE",
        hide_env_values = true,
        value_name = "URL"
    )]
    store: Option<String>,
    /// The key file (64 hex digits) every replica of the team signs shared rows with;
    /// overrides `[store] key_file`.
    #[arg(
        long,
        global = true,
        env = "SMART_CONTEXT_STORE_KEY_FILE",
        value_name = "FILE"
    )]
    store_key: Option<PathBuf>,
    /// Keep each root's index and state.db in a directory of its own under DIR instead of
    /// `<root>/.smart-context`: for replicas sharing a working tree (team mode), whose state
    /// must not live on the shared storage.
    #[arg(
        long,
        global = true,
        env = "SMART_CONTEXT_STATE_DIR",
        value_name = "DIR"
    )]
    state_dir: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

impl Cli {
    /// The first `--root` (the current directory when none is given): the one commands that
    /// take a single root (setup, trust, memory) use.
    fn first_root(&self) -> &std::path::Path {
        self.root
            .first()
            .map_or(std::path::Path::new("."), |p| p.as_path())
    }
}

#[derive(Subcommand)]
enum Command {
    /// Serve MCP over stdio, or over streamable HTTP with --http.
    Serve {
        /// Listen on ADDR (e.g. 127.0.0.1:8765; port 0 picks one) instead of stdio.
        #[arg(long, value_name = "ADDR")]
        http: Option<SocketAddr>,
        /// Bearer token HTTP clients must send (default: $SMART_CONTEXT_HTTP_TOKEN, the config's
        /// http.token, or a generated one printed to stderr).
        #[arg(long, env = "SMART_CONTEXT_HTTP_TOKEN", hide_env_values = true)]
        token: Option<String>,
        /// Serve HTTP without a bearer token. Loopback addresses only: for tools that cannot
        /// send one, like the MCP conformance suite (scripts/conformance.sh).
        #[arg(long, requires = "http", conflicts_with = "token")]
        no_token: bool,
    },
    /// Call one tool and print its structured result (exit 1 on a tool error).
    Call {
        /// explore, understand, change, write or manage.
        tool: String,
        /// Arguments as JSON, @FILE to read them from a file, or - for stdin.
        #[arg(default_value = "{}")]
        args: String,
    },
    /// List loaded plugins: world, hash, grants, source and load time; and rejected ones.
    Plugins {
        #[arg(long)]
        json: bool,
    },
    /// Work on a plugin component: `plugin pin FILE` prints the config entry that loads it.
    Plugin {
        #[command(subcommand)]
        action: PluginCommand,
    },
    /// Show root, plugins, store and index as JSON.
    Status,
    /// Internal: run ARGV confined by Landlock to writing beneath the --write directories
    /// (how `[test] confine = true` runs the test command).
    #[command(hide = true)]
    Confine {
        #[arg(long = "write", value_name = "DIR")]
        write: Vec<PathBuf>,
        #[arg(last = true, required = true)]
        argv: Vec<String>,
    },
    /// Print the configuration an MCP client needs to use this server, or merge it into the
    /// client's config file with --write (an existing, different entry needs --force).
    Setup {
        client: setup::Client,
        /// Merge the entry into the client's config file instead of printing it.
        #[arg(long)]
        write: bool,
        /// Replace an existing, different smart-context entry.
        #[arg(long, requires = "write")]
        force: bool,
        /// Configure an HTTP connection to a running `serve --http` at URL (e.g.
        /// http://127.0.0.1:8765/mcp), with the bearer token from $SMART_CONTEXT_HTTP_TOKEN.
        #[arg(long, value_name = "URL")]
        http: Option<String>,
    },
    /// Trust the root's smart-context.toml as it is now, so its privileged settings (test
    /// command, plugins, HTTP) apply. Recorded by hash outside the root: a changed file needs
    /// trusting again.
    Trust,
    /// Session memory: record a client hook's payload, or print a client's hook configuration.
    Memory {
        #[command(subcommand)]
        action: MemoryCommand,
    },
    /// Index the root now (incrementally: only what changed), with progress and a summary.
    Index {
        /// Reread and reindex every file.
        #[arg(long)]
        full: bool,
        /// Print the report as JSON instead of a summary line.
        #[arg(long)]
        json: bool,
    },
}

/// Session memory from outside the server: a client's hook payloads in, hook configurations out.
#[derive(Subcommand)]
enum MemoryCommand {
    /// Record a client hook's payload (stdin, or PAYLOAD for Codex's notify) in the memory of
    /// the project it names. Never fails the client: problems go to stderr, exit 0.
    Hook {
        /// The client (detected from the payload when left out).
        #[arg(long, value_enum)]
        client: Option<smart_context::memory::hook::HookClient>,
        /// The payload as an argument (Codex's notify passes it so).
        payload: Option<String>,
    },
    /// Print the hook configuration to paste into CLIENT's settings.
    Hooks {
        #[arg(value_enum)]
        client: smart_context::memory::hook::HookClient,
    },
}

/// A plugin author's and an operator's tools for one component.
#[derive(Subcommand)]
enum PluginCommand {
    /// Print the smart-context.toml entry that loads FILE as it is: its sha256 pinned (any
    /// other build is refused), the grants its imports need, `enabled` for a tool. Checked
    /// as a load checks it (world, imports); nothing is compiled or run.
    Pin {
        /// The component (`NAME.wasm`; NAME is what the config calls it).
        file: PathBuf,
    },
    /// Write a buildable plugin project into ./NAME (or --dir): the contract, a working
    /// example for the world, the language's helpers, build.sh and a README with the commands
    /// that check, pin and load it.
    New {
        language: smart_context::authoring::scaffold::Language,
        world: smart_context::authoring::scaffold::WorldChoice,
        name: String,
        /// Where to write it (default: ./NAME).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Print the contract this binary speaks (wit/plugin.wit, smart-context:plugin@VERSION), for
    /// a toolchain's --wit; --world keeps that world only (for tools that take no world name).
    Wit {
        #[arg(long)]
        world: Option<smart_context::authoring::scaffold::WorldChoice>,
    },
    /// Run FILE alone as the server would (the operator's limits, WASI that grants nothing,
    /// granted what it imports but edits and tasks) and print a JSON report: its imports, the grants they need,
    /// compile and call timings, and the result of parsing --input or calling with --args.
    /// Exits non-zero when it is refused or its call fails.
    Check {
        file: PathBuf,
        /// A file for a parser to parse.
        #[arg(long, value_name = "FILE", conflicts_with = "args")]
        input: Option<PathBuf>,
        /// Arguments for a tool (JSON, @FILE, or - for stdin); the root is the one it works on.
        #[arg(long, value_name = "JSON")]
        args: Option<String>,
        /// Grant what a check leaves out by default: edits (it may change the root's files)
        /// or tasks (it may run the configured test command). Repeatable.
        #[arg(long = "grant", value_name = "GRANT")]
        grants: Vec<String>,
    },
}

include!(concat!(env!("OUT_DIR"), "/embedded_plugins.rs"));

fn main() -> ExitCode {
    smart_context::tasks::isolation::shield_server();
    limit_malloc_arenas();
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("smart-context: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    if let Command::Confine { write, argv } = &cli.command {
        #[cfg(target_os = "linux")]
        match smart_context::tasks::confine::exec(write, argv)? {}
        #[cfg(not(target_os = "linux"))]
        bail!("confine needs Linux (Landlock); cannot run {argv:?} beneath {write:?}");
    }
    let default_level = if matches!(cli.command, Command::Serve { .. }) {
        "info"
    } else {
        "warn"
    };
    // stderr gets what SMART_CONTEXT_LOG asks for; MCP clients that send logging/setLevel get
    // the host's own events (debug and up, each client filtered at its level).
    let stderr = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_filter(
            EnvFilter::try_from_env("SMART_CONTEXT_LOG")
                .unwrap_or_else(|_| EnvFilter::new(default_level)),
        );
    let clients = mcp::logging::ClientLogLayer.with_filter(
        tracing_subscriber::filter::Targets::new()
            .with_target("smart_context", tracing::Level::DEBUG),
    );
    tracing_subscriber::registry()
        .with(stderr)
        .with(clients)
        .init();
    if cli.root.len() > 1 && matches!(cli.command, Command::Memory { .. }) {
        bail!("memory acts on one root: run it once per --root");
    }
    if let Command::Setup {
        client,
        write,
        force,
        http,
    } = &cli.command
    {
        let roots = match cli.root.as_slice() {
            [] => vec![PathBuf::from(".")],
            given => given.to_vec(),
        };
        return run_setup(&roots, *client, *write, *force, http.clone());
    }
    if let Command::Memory { action } = &cli.command {
        return run_memory(cli.first_root(), action);
    }
    if let Command::Plugin {
        action: PluginCommand::Pin { file },
    } = &cli.command
    {
        let entry = smart_context::runtime::plugins::pin_entry(file)
            .map_err(|e| anyhow::anyhow!("{} cannot be loaded: {e}", file.display()))?;
        emit(entry.trim_end())?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Command::Trust = cli.command {
        for root in cli
            .root
            .iter()
            .map(PathBuf::as_path)
            .chain(cli.root.is_empty().then_some(std::path::Path::new(".")))
        {
            let (path, hash) = smart_context::config::trust(root)?;
            emit(&format!(
                "trusted {} (sha256 {hash}); its settings apply from the next start",
                path.display()
            ))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let operator = smart_context::config::Config::load_operator(cli.config.as_deref())?;
    let specs = smart_context::roots::to_serve(&cli.root, &operator.root_entries())?;
    let first = &specs[0];
    // The team store, for commands that open a root (scaffolding a plugin or listing the
    // plugins needs no database).
    let opens_root = !matches!(
        cli.command,
        Command::Plugin {
            action: PluginCommand::New { .. }
        } | Command::Plugins { .. }
    );
    let team = if opens_root {
        smart_context::app::team(&operator, cli.store.as_deref(), cli.store_key.as_deref())?
    } else {
        None
    };
    let mut options = OpenOptions {
        team,
        root: first.path.clone(),
        config: cli.config.clone(),
        builtin_plugins: None,
        embedded_plugins: EMBEDDED_PLUGINS,
        data_dir: None,
        state_dir: None,
        state_base: cli.state_dir.clone(),
        only_plugin: None,
        root_name: first.name.clone(),
        policy: first.policy,
    };
    // Commands that only look leave no state behind in a root that has none: `plugins`
    // always, `call` when its arguments or tool name are wrong.
    let no_state_yet = cli.state_dir.is_none() && !first.path.join(app::STATE_DIR).exists();
    if let Command::Plugin {
        action:
            PluginCommand::New {
                language,
                world,
                name,
                dir,
            },
    } = &cli.command
    {
        let dir = dir.clone().unwrap_or_else(|| PathBuf::from(name));
        let written =
            smart_context::authoring::scaffold::scaffold(*language, (*world).into(), name, &dir)?;
        emit(&format!(
            "wrote {} files to {}; next: cd {} && ./build.sh (see README.md)",
            written.len(),
            dir.display(),
            dir.display()
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Command::Plugin {
        action: PluginCommand::Wit { world },
    } = &cli.command
    {
        use smart_context::authoring::scaffold;
        let text = match world {
            Some(world) => scaffold::single_world(
                scaffold::WIT,
                smart_context::runtime::plugins::World::from(*world).name(),
            ),
            None => scaffold::WIT.to_string(),
        };
        emit(text.trim_end())?;
        return Ok(ExitCode::SUCCESS);
    }
    let scratch = scratch_dir()?;
    if let Command::Plugin {
        action:
            PluginCommand::Check {
                file,
                input,
                args,
                grants,
            },
    } = &cli.command
    {
        let request = smart_context::authoring::check::CheckRequest {
            component: file.clone(),
            input: input.clone(),
            args: args.as_deref().map(read_args).transpose()?,
            grants: grants.clone(),
        };
        let (report, ok) =
            smart_context::authoring::check::check(&options, scratch.path(), &request)?;
        emit(&serde_json::to_string_pretty(&report)?)?;
        return Ok(if ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    }
    let mut call_args = String::new();
    if let Command::Call { tool, args } = &cli.command {
        call_args = read_args(args)?;
        let value: serde_json::Value =
            serde_json::from_str(&call_args).context("the arguments are not valid JSON")?;
        if !value.is_object() {
            bail!("the arguments must be a JSON object");
        }
        if no_state_yet {
            let probe = app::open(&OpenOptions {
                state_dir: Some(scratch.path().join("probe")),
                ..options.clone()
            })?;
            if !probe.tools().iter().any(|t| &t.name == tool) {
                let names: Vec<String> = probe.tools().into_iter().map(|t| t.name).collect();
                bail!("no tool named {tool}; the tools are {}", names.join(", "));
            }
        }
    }
    if matches!(cli.command, Command::Plugins { .. }) && no_state_yet {
        options.state_dir = Some(scratch.path().join("state"));
    }
    let runtime = app::open(&options)?;
    // `plugins` lists what the runtime loaded: the other roots play no part, and opening
    // them would leave state directories behind.
    if !matches!(cli.command, Command::Plugins { .. }) {
        for spec in &specs[1..] {
            app::open_another_root(&runtime, spec, &options)?;
        }
    }
    let roots = runtime.roots().all();
    let index = runtime.services().index.clone();
    match cli.command {
        Command::Serve {
            http: addr,
            token,
            no_token,
        } => {
            // The first pass waits for explore's compile (the first thing a new server
            // compiles, under a second): the agent's first question needs it, and indexing
            // beside it would take the cores.
            let first = runtime.clone();
            let indexes: Vec<_> = roots.iter().map(|r| r.services.index.clone()).collect();
            let _ = std::thread::Builder::new()
                .name("index-start".into())
                .spawn(move || {
                    first.prepare_tool("explore");
                    for index in indexes {
                        index.start_background();
                    }
                });
            for root in &roots {
                app::keep_up(&root.services, true);
            }
            let mut server = Server::new(runtime.clone());
            if let Some(opener) = app::ClientRootOpener::new(&runtime, &operator, &options)? {
                server = server.with_client_roots(opener);
            }
            let owner = runtime.clone();
            let rt = tokio::runtime::Runtime::new()?;
            let served = rt.block_on(async move {
                match addr {
                    None => {
                        if std::io::stdin().is_terminal() {
                            eprintln!(
                                "smart-context: serving MCP over stdio for {}: an MCP client starts this command and talks JSON-RPC on stdin/stdout.\n  set a client up: smart-context setup claude-code (or cursor, vscode, codex, gemini, claude-desktop)\n  try it by hand (Node 22.19 or newer): npx @modelcontextprotocol/inspector {} --root {} serve\n  Ctrl-D or Ctrl-C stops it.",
                                runtime.services().workspace.root().display(),
                                std::env::current_exe().map(|p| p.display().to_string()).unwrap_or_else(|_| "smart-context".into()),
                                runtime.services().workspace.root().display(),
                            );
                        }
                        server.serve_stdio().await
                    }
                    Some(addr) => {
                        let http_config = &runtime.services().config.http;
                        let token = (!no_token).then(|| {
                            token
                                .or_else(|| http_config.token.clone())
                                .unwrap_or_else(|| {
                                    let generated = http::generate_token();
                                    eprintln!("smart-context: HTTP bearer token: {generated}");
                                    generated
                                })
                        });
                        let options = http::HttpOptions {
                            addr,
                            token,
                            allowed_hosts: http_config.allowed_hosts.clone(),
                            allowed_origins: http_config.allowed_origins.clone(),
                            max_connections: http_config
                                .max_connections
                                .unwrap_or(http::DEFAULT_MAX_CONNECTIONS),
                            header_timeout: std::time::Duration::from_millis(
                                http_config
                                    .header_timeout_ms
                                    .unwrap_or(http::DEFAULT_HEADER_TIMEOUT_MS),
                            ),
                            sessions: options.team.as_ref().map(|team| {
                                smart_context::store::postgres::sessions::Sessions::new(
                                    team.postgres.clone(),
                                    team.key.clone(),
                                )
                            }),
                        };
                        let shutdown = async {
                            let _ = tokio::signal::ctrl_c().await;
                        };
                        http::serve(server, options, shutdown).await
                    }
                }
            });
            // The client is gone: calls still running were cancelled with it and stop at
            // their next check; a straggler does not keep the process alive.
            rt.shutdown_timeout(std::time::Duration::from_secs(2));
            // The last calls' memory events are written behind their answers: keep them.
            for root in owner.roots().every() {
                root.services.memory.flush();
            }
            served?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Call { tool, .. } => {
            let args = call_args;
            // One-shot calls answer from an up-to-date index: catch up first (quick when
            // nothing changed); a read-only index answers as it is.
            for root in &roots {
                if !root.services.index.is_read_only() {
                    root.services.index.update(false, None)?;
                }
            }
            let control = smart_context::tasks::Control::new();
            let outcome = runtime.call_tool_routed(&tool, &args, &control);
            for root in &roots {
                root.services.memory.flush();
            }
            match outcome {
                Ok(output) => {
                    emit(&serde_json::to_string_pretty(&output.structured)?)?;
                    Ok(if output.is_failure() {
                        ExitCode::FAILURE
                    } else {
                        ExitCode::SUCCESS
                    })
                }
                Err(err) => {
                    let structured = mcp::error_result(err.clone()).structured_content;
                    emit(&serde_json::to_string_pretty(
                        &structured.unwrap_or_default(),
                    )?)?;
                    eprintln!("smart-context: {err}");
                    Ok(ExitCode::FAILURE)
                }
            }
        }
        Command::Plugins { json } => {
            runtime.compile_all();
            let plugins = runtime.plugins();
            if json {
                let report =
                    serde_json::json!({ "plugins": plugins, "rejected": runtime.rejected() });
                emit(&serde_json::to_string_pretty(&report)?)?;
                return Ok(ExitCode::SUCCESS);
            }
            let mut table = format!(
                "{:<12} {:<15} {:<16} {:<14} {:<40} SOURCE",
                "NAME", "WORLD", "LOAD", "SHA256", "GRANTS"
            );
            for p in &plugins {
                table.push_str(&format!(
                    "\n{:<12} {:<15} {:<16} {:<14} {:<40} {}",
                    p.name,
                    p.world,
                    format!("{} {:.1} ms", p.load, p.load_ms),
                    &p.sha256[..12],
                    p.grants.join(","),
                    p.source
                ));
            }
            for r in runtime.rejected() {
                table.push_str(&format!(
                    "\nREJECTED {} ({}): {}",
                    r.name, r.source, r.reason
                ));
            }
            emit(&table)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Status => {
            runtime.compile_all();
            let mut report = serde_json::to_value(runtime.status())?;
            report["index"] = serde_json::to_value(index.status())?;
            if roots.len() > 1 {
                let each: Vec<serde_json::Value> = roots
                    .iter()
                    .map(|r| {
                        serde_json::json!({
                            "name": r.name,
                            "root": r.services.workspace.root().display().to_string(),
                            "readOnly": r.services.workspace.is_read_only(),
                            "index": r.services.index.status(),
                        })
                    })
                    .collect();
                report["roots"] = serde_json::Value::Array(each);
            }
            emit(&serde_json::to_string_pretty(&report)?)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Trust
        | Command::Confine { .. }
        | Command::Setup { .. }
        | Command::Plugin { .. }
        | Command::Memory { .. } => {
            unreachable!("handled before the host opens")
        }
        Command::Index { full, json } => {
            // One root: its report, as ever; several: each under its name.
            let mut reports = serde_json::Map::new();
            for root in &roots {
                let report = index_with_progress(&root.services.index, full)?;
                if json {
                    let mut value = serde_json::to_value(&report)?;
                    // Where the search index's bytes go, by part and field.
                    match root.services.index.search_index_space() {
                        Ok(space) => value["searchIndexBytes"] = serde_json::to_value(space)?,
                        Err(err) => tracing::warn!("measuring the search index: {err:#}"),
                    }
                    reports.insert(root.name.clone(), value);
                    continue;
                }
                match roots.len() {
                    1 => emit(&report.to_string())?,
                    _ => emit(&format!("{}: {report}", root.name))?,
                }
                for (reason, paths) in &report.skipped_examples {
                    eprintln!("skipped ({reason}): {}", paths.join(", "));
                }
                for warning in &report.warnings {
                    eprintln!("warning: {warning}");
                }
            }
            if json {
                let value = match reports.len() {
                    1 => reports
                        .into_iter()
                        .next()
                        .map(|(_, r)| r)
                        .unwrap_or_default(),
                    _ => serde_json::json!({ "roots": reports }),
                };
                emit(&serde_json::to_string_pretty(&value)?)?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// glibc gives each thread that allocates an arena of its own (up to eight per core); over
/// the days of a server, indexing, tokio and plugin threads leave them fragmented and the RSS
/// grows with every pass (114 -> 188 MB over 30 checkouts of requests, and on), where one
/// arena per core keeps it flat (106 -> 131 MB, and there). Set before any thread starts.
fn limit_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        // SAFETY: mallopt only sets an allocator parameter; no other thread exists yet.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, cores.clamp(2, 8) as libc::c_int);
        }
    }
}

/// `setup`: prints the client's configuration, or merges it into the client's file.
fn run_memory(root: &std::path::Path, action: &MemoryCommand) -> Result<ExitCode> {
    use smart_context::memory::hook;
    match action {
        MemoryCommand::Hooks { client } => emit(&hook::config_for(*client))?,
        MemoryCommand::Hook { client, payload } => {
            let text = match payload {
                Some(text) => text.clone(),
                None => {
                    let mut text = String::new();
                    // A hook payload is a few KB; a runaway stdin is not read past 16 MiB.
                    std::io::stdin()
                        .take(16 << 20)
                        .read_to_string(&mut text)
                        .context("reading the hook payload from stdin")?;
                    text
                }
            };
            // A memory hook must never block the client's turn: every problem is a warning.
            match hook::record(
                root,
                &smart_context::config::user_data_dir(),
                *client,
                &text,
            ) {
                Ok(kept) => tracing::debug!("memory hook: {kept} event(s) kept"),
                Err(err) => eprintln!("smart-context memory hook: {err:#}"),
            }
            if *client == Some(hook::HookClient::Cursor) && text.contains("beforeSubmitPrompt") {
                println!("{{\"continue\": true}}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn run_setup(
    roots: &[PathBuf],
    client: setup::Client,
    write: bool,
    force: bool,
    http: Option<String>,
) -> Result<ExitCode> {
    let roots = roots
        .iter()
        .map(|root| {
            root.canonicalize()
                .with_context(|| format!("the root {} does not exist", root.display()))
        })
        .collect::<Result<Vec<_>>>()?;
    // One entry serves every root; a project-level file goes in the first.
    let root = roots[0].clone();
    let transport = match http {
        Some(url) => setup::Transport::Http { url },
        None => setup::Transport::Stdio {
            binary: std::env::current_exe()?.canonicalize()?,
            roots: roots.clone(),
        },
    };
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .context("HOME is not set")?;
    // A client with a per-call timeout waits longer than the slowest call, a test run.
    let tests_timeout = smart_context::config::Config::load(&root, None)
        .map(|c| c.test.timeout_ms)
        .unwrap_or(smart_context::config::TestSettings::default().timeout_ms);
    let plan = setup::plan(client, &transport, &root, &home, tests_timeout / 1000 + 60)?;
    if write {
        match plan.write(force)? {
            true => emit(&format!(
                "wrote the smart-context entry to {}",
                plan.file.display()
            ))?,
            false => emit(&format!("{} already has this entry", plan.file.display()))?,
        }
    } else {
        emit(&format!("# add to {}", plan.file.display()))?;
        emit(&plan.snippet())?;
        if let Some(command) = &plan.command {
            emit(&format!("# or run:\n{command}"))?;
        }
        emit("# or let smart-context merge it in: add --write")?;
    }
    if let Some(note) = &plan.note {
        emit(&format!("# {note}"))?;
    }
    if let Some(hooks) = client.memory_hooks() {
        let name = hooks
            .to_possible_value()
            .map_or_else(String::new, |v| v.get_name().to_string());
        emit(&format!(
            "# session memory records every tool call by itself; to add your prompts and the agent's answers, install the hooks `smart-context memory hooks {name}` prints"
        ))?;
    }
    emit(
        "# then ask your agent to call explore, e.g. explore({ query: \"where is the config parsed\" })",
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Runs a pass with a progress bar on stderr (hidden when stderr is not a terminal).
fn index_with_progress(index: &Index, full: bool) -> Result<Report> {
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(0)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} indexing [{bar:40}] {human_pos}/{human_len} files ({rate} files/s, {eta})",
        )
        .expect("a valid template")
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, out: &mut dyn std::fmt::Write| {
                let _ = out.write_fmt(format_args!("{:.0}", state.per_sec()));
            },
        )
        .progress_chars("=> "),
    );
    // The spinner and the rate keep moving while a slow file holds the count.
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    let progress = |done: u64, total: u64| {
        bar.set_length(total);
        bar.set_position(done);
    };
    let report = index.update(full, Some(&progress));
    bar.finish_and_clear();
    // The process ends here: merge away what the pass deleted instead of leaving it on disk.
    if report.is_ok()
        && let Err(err) = index.compact()
    {
        tracing::warn!("compacting the search index: {err:#}");
    }
    report
}

/// Prints a result to stdout; a reader that went away (`| head`) is not an error.
fn emit(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// A scratch directory for state that must not outlive the command (removed on drop).
fn scratch_dir() -> Result<ScratchDir> {
    let path = std::env::temp_dir().join(format!(
        "smart-context-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    Ok(ScratchDir(path))
}

/// A directory removed when dropped; created lazily by whoever uses a path inside it.
struct ScratchDir(PathBuf);

impl ScratchDir {
    fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn read_args(args: &str) -> Result<String> {
    if args == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text)?;
        return Ok(text);
    }
    match args.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path).with_context(|| format!("reading {path}")),
        None => Ok(args.to_string()),
    }
}
