//! The compiled-component cache: a second load comes from the cache, a corrupt, tampered or
//! mismatched entry is recompiled rather than loaded, and a component the engine refuses is
//! refused again without compiling until the limits change.

use smart_context::config::Limits;
use smart_context::runtime::cache::{ComponentCache, Origin};
use smart_context::runtime::engine;
use std::path::PathBuf;

fn markdown_wasm() -> Vec<u8> {
    std::fs::read(PathBuf::from(env!("SMART_CONTEXT_BUILTIN_PLUGINS")).join("markdown.wasm"))
        .unwrap()
}

fn artifact(dir: &std::path::Path, ext: &str) -> PathBuf {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == ext))
        .unwrap_or_else(|| panic!("no .{ext} in the cache"))
}

#[test]
fn cache_hits_and_refuses_damaged_entries() {
    let engine = engine::build(&Limits::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cache = ComponentCache::open(dir.path(), &engine, &Limits::default());
    let wasm = markdown_wasm();
    let load = || {
        cache
            .load_or_compile(&engine, &wasm, "markdown-test")
            .unwrap()
            .1
    };
    assert_eq!(load(), Origin::Compiled);
    assert_eq!(load(), Origin::Cached);

    // Flip bytes in the artifact: the checksum no longer matches.
    let cwasm = artifact(dir.path(), "cwasm");
    let mut bytes = std::fs::read(&cwasm).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&cwasm, &bytes).unwrap();
    assert_eq!(load(), Origin::Compiled);
    assert_eq!(load(), Origin::Cached);

    // Truncate it, and rewrite the checksum to match (as a careless tamperer would): wasmtime's
    // own validation refuses it.
    let truncated = &std::fs::read(&cwasm).unwrap()[..64];
    std::fs::write(&cwasm, truncated).unwrap();
    std::fs::write(
        artifact(dir.path(), "blake3"),
        blake3::hash(truncated).to_hex().as_bytes(),
    )
    .unwrap();
    assert_eq!(load(), Origin::Compiled);

    // An artifact from an engine with another configuration, checksum and all, is refused by
    // wasmtime's compatibility check and recompiled.
    let other = wasmtime::Engine::new(wasmtime::Config::new().epoch_interruption(false)).unwrap();
    let foreign = wasmtime::component::Component::new(&other, &wasm)
        .unwrap()
        .serialize()
        .unwrap();
    std::fs::write(&cwasm, &foreign).unwrap();
    std::fs::write(
        artifact(dir.path(), "blake3"),
        blake3::hash(&foreign).to_hex().as_bytes(),
    )
    .unwrap();
    assert_eq!(load(), Origin::Compiled);
    assert_eq!(load(), Origin::Cached);
}

#[test]
fn a_refused_compilation_is_remembered_under_the_limits_it_met() {
    let tight = Limits {
        core_instances_per_component: 1,
        ..Limits::default()
    };
    let engine = engine::build(&tight).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cache = ComponentCache::open(dir.path(), &engine, &tight);
    let wasm = markdown_wasm();
    let first = cache
        .load_or_compile(&engine, &wasm, "markdown-test")
        .map(|_| ())
        .expect_err("over the limit")
        .to_string();
    assert!(
        first.contains("core module instances")
            && first.contains("core_instances_per_component")
            && !first.contains("remembered"),
        "{first}"
    );
    assert!(artifact(dir.path(), "refused").is_file());
    // The same bytes under the same limits: refused from memory, nothing compiled.
    let again = cache
        .load_or_compile(&engine, &wasm, "markdown-test")
        .map(|_| ())
        .expect_err("refused again")
        .to_string();
    assert!(again.contains("remembered"), "{again}");
    // Raised limits try afresh.
    let engine = engine::build(&Limits::default()).unwrap();
    let cache = ComponentCache::open(dir.path(), &engine, &Limits::default());
    let (_, origin) = cache
        .load_or_compile(&engine, &wasm, "markdown-test")
        .unwrap();
    assert_eq!(origin, Origin::Compiled);
}

#[cfg(unix)]
#[test]
fn a_cache_directory_writable_by_others_is_made_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let engine = engine::build(&Limits::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cache_dir = dir.path().join("cache");
    std::fs::create_dir(&cache_dir).unwrap();
    std::fs::set_permissions(&cache_dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let _cache = ComponentCache::open(&cache_dir, &engine, &Limits::default());
    let mode = std::fs::metadata(&cache_dir).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
}
