//! Builds every crate under plugins/ as a wasm32-wasip2 component, so a plain `cargo build` or
//! `cargo test` at the root has the plugins with no extra command.
//!
//! The nested build uses its own target dir (`target/plugins`; sharing ours deadlocks on the
//! artifact lock), runs with the outer build's CARGO_* / RUSTFLAGS variables removed, and sends
//! its stdout away (cargo would parse it as build-script directives). Built-in components are
//! copied to `target/plugins/builtin/` and test fixtures (plugins/testing/*) to
//! `target/plugins/testing/`. The library finds them at run time through
//! SMART_CONTEXT_BUILTIN_PLUGINS (so editing a plugin never recompiles it); the binary embeds
//! the built-in ones (`$OUT_DIR/embedded_plugins.rs`, included by main.rs), so an installed
//! executable is self-contained. SMART_CONTEXT_SKIP_PLUGIN_BUILD=1 skips the nested build (for
//! rust-analyzer); whatever was built before is still embedded.
//!
//! RUSTUP_AUTO_INSTALL=0 on our machines means rust-toolchain.toml's `targets` are not
//! installed by themselves; the wasm32-wasip2 target is added here when its std is missing.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const WASM_TARGET: &str = "wasm32-wasip2";

fn main() {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let repo = manifest_dir
        .parent()
        .expect("host/ has a parent")
        .to_path_buf();
    let plugins = repo.join("plugins");
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|d| if d.is_absolute() { d } else { repo.join(d) })
        .unwrap_or_else(|| repo.join("target"))
        .join("plugins");
    let builtin_out = target_dir.join("builtin");
    let testing_out = target_dir.join("testing");
    println!(
        "cargo:rustc-env=SMART_CONTEXT_BUILTIN_PLUGINS={}",
        builtin_out.display()
    );
    println!(
        "cargo:rustc-env=SMART_CONTEXT_TEST_PLUGINS={}",
        testing_out.display()
    );
    println!("cargo:rerun-if-env-changed=SMART_CONTEXT_SKIP_PLUGIN_BUILD");
    println!("cargo:rerun-if-changed={}", repo.join("wit").display());
    println!(
        "cargo:rerun-if-changed={}",
        plugins.join("Cargo.toml").display()
    );
    println!(
        "cargo:rerun-if-changed={}",
        plugins.join("Cargo.lock").display()
    );
    println!(
        "cargo:rerun-if-changed={}",
        plugins.join(".cargo/config.toml").display()
    );
    let builtins = crate_dirs(&plugins, &["sdk", "testing", "target"]);
    let fixtures = crate_dirs(&plugins.join("testing"), &[]);
    for dir in builtins
        .iter()
        .chain(&fixtures)
        .chain([&plugins.join("sdk")])
    {
        for watched in ["Cargo.toml", "src", "wit", "data"] {
            if dir.join(watched).exists() {
                println!("cargo:rerun-if-changed={}", dir.join(watched).display());
            }
        }
    }
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    if std::env::var_os("SMART_CONTEXT_SKIP_PLUGIN_BUILD").is_some_and(|v| v != "0") {
        println!("cargo:warning=SMART_CONTEXT_SKIP_PLUGIN_BUILD is set: plugins were not rebuilt");
        write_embedded(&builtin_out, &out_dir);
        return;
    }
    let started = std::time::Instant::now();
    tell_terminal(
        "building the wasm plugins (the first build takes a few minutes; later ones only rebuild what changed)",
    );

    ensure_wasm_target();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args([
            "build",
            "--release",
            "--target",
            WASM_TARGET,
            "--manifest-path",
        ])
        .arg(plugins.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        // Cargo reads plugins/.cargo/config.toml (the C compiler for the grammars) from the
        // directory it runs in.
        .current_dir(&plugins)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    scrub_env(&mut command);
    let status = command.status().expect("running cargo for the plugins");
    assert!(
        status.success(),
        "building the wasm plugins failed (see the cargo output above)"
    );

    let built = target_dir.join(WASM_TARGET).join("release");
    sync_components(&built, &builtins, &builtin_out);
    sync_components(&built, &fixtures, &testing_out);
    write_embedded(&builtin_out, &out_dir);
    let seconds = started.elapsed().as_secs();
    if seconds >= 20 {
        println!(
            "cargo:warning=built {} wasm plugins in {seconds} s",
            builtins.len() + fixtures.len()
        );
    }
}

/// Cargo shows a build script's output only when it fails: a long first build would wait in
/// silence. A line on the terminal, when there is one, says what is happening.
fn tell_terminal(message: &str) {
    use std::io::Write;
    if let Ok(mut tty) = std::fs::OpenOptions::new().write(true).open("/dev/tty") {
        let _ = writeln!(tty, "   smart-context: {message}");
    }
}

/// Writes `embedded_plugins.rs`: every built-in component as `(name, include_bytes!(..),
/// sha256)`, hashed here so a start need not hash them.
fn write_embedded(builtin_out: &Path, out_dir: &Path) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(builtin_out)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "wasm"))
        .collect();
    files.sort();
    let mut code = String::from(
        "/// The built-in components, compiled into the executable (generated by build.rs).\n\
         pub static EMBEDDED_PLUGINS: &[(&str, &[u8], &str)] = &[\n",
    );
    for file in &files {
        use sha2::Digest;
        let name = file.file_stem().unwrap().to_string_lossy();
        let bytes = std::fs::read(file).expect("reading a built-in component");
        let sha256: String = sha2::Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        code.push_str(&format!(
            "    ({name:?}, include_bytes!({:?}), {sha256:?}),\n",
            file.display().to_string()
        ));
    }
    code.push_str("];\n");
    let dest = out_dir.join("embedded_plugins.rs");
    if std::fs::read_to_string(&dest).ok().as_deref() != Some(code.as_str()) {
        std::fs::write(&dest, code).expect("writing embedded_plugins.rs");
    }
}

/// Crate directories directly under `dir` (those with a Cargo.toml), minus `skip`, sorted.
fn crate_dirs(dir: &Path, skip: &[&str]) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .filter(|p| !skip.iter().any(|s| p.file_name().is_some_and(|n| n == *s)))
        .collect();
    dirs.sort();
    dirs
}

/// Adds the wasm32-wasip2 target to the active toolchain when its std is missing.
fn ensure_wasm_target() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let sysroot = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    if sysroot.is_some_and(|s| s.join("lib/rustlib").join(WASM_TARGET).is_dir()) {
        return;
    }
    println!("cargo:warning=installing the {WASM_TARGET} target with rustup");
    let mut rustup = Command::new("rustup");
    rustup.args(["target", "add", WASM_TARGET]);
    if let Ok(toolchain) = std::env::var("RUSTUP_TOOLCHAIN") {
        rustup.args(["--toolchain", &toolchain]);
    }
    let status = rustup.stdout(Stdio::null()).status();
    assert!(
        status.is_ok_and(|s| s.success()),
        "the {WASM_TARGET} target is missing and `rustup target add {WASM_TARGET}` failed; install it by hand"
    );
}

/// Removes what the outer build set for us, so the nested cargo configures itself afresh.
fn scrub_env(command: &mut Command) {
    for (key, _) in std::env::vars_os() {
        let Some(key) = key.to_str() else { continue };
        let outer_only = (key.starts_with("CARGO_")
            && key != "CARGO_HOME"
            && !key.starts_with("CARGO_NET_")
            && !key.starts_with("CARGO_HTTP_")
            && !key.starts_with("CARGO_REGISTRIES_"))
            || matches!(
                key,
                "RUSTFLAGS"
                    | "RUSTDOCFLAGS"
                    | "RUSTC"
                    | "RUSTC_WRAPPER"
                    | "RUSTC_WORKSPACE_WRAPPER"
                    | "RUSTC_LINKER"
                    | "TARGET"
                    | "HOST"
                    | "OUT_DIR"
                    | "OPT_LEVEL"
                    | "PROFILE"
                    | "DEBUG"
                    | "NUM_JOBS"
                    | "CARGO_MAKEFLAGS"
                    | "MAKEFLAGS"
                    | "MFLAGS"
            );
        if outer_only {
            command.env_remove(key);
        }
    }
}

/// Copies `<crate>.wasm` for each crate into `out` when its bytes changed, and removes
/// components whose crate is gone.
fn sync_components(built: &Path, crates: &[PathBuf], out: &Path) {
    std::fs::create_dir_all(out).expect("creating the plugin output dir");
    let mut wanted = Vec::new();
    for dir in crates {
        let name = dir.file_name().unwrap().to_string_lossy().replace('-', "_");
        let file = format!("{name}.wasm");
        let source = built.join(&file);
        let bytes =
            std::fs::read(&source).unwrap_or_else(|e| panic!("reading {}: {e}", source.display()));
        let dest = out.join(&file);
        if std::fs::read(&dest).ok().as_deref() != Some(&bytes[..]) {
            std::fs::write(&dest, &bytes)
                .unwrap_or_else(|e| panic!("writing {}: {e}", dest.display()));
        }
        wanted.push(file);
    }
    for entry in std::fs::read_dir(out)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".wasm") && !wanted.contains(&name) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
