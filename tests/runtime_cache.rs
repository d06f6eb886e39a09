//! The compiled-component cache: a second load comes from the cache, and a corrupt, tampered
//! or mismatched entry is recompiled rather than loaded.

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
    let cache = ComponentCache::open(dir.path(), &engine);
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

#[cfg(unix)]
#[test]
fn a_cache_directory_writable_by_others_is_made_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let engine = engine::build(&Limits::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cache_dir = dir.path().join("cache");
    std::fs::create_dir(&cache_dir).unwrap();
    std::fs::set_permissions(&cache_dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let _cache = ComponentCache::open(&cache_dir, &engine);
    let mode = std::fs::metadata(&cache_dir).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
}
