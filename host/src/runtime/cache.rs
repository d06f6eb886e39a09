//! The on-disk cache of compiled components. An entry is keyed by the component's SHA-256 and
//! the engine's compatibility hash, and stored with the BLAKE3 of its artifact: a corrupt,
//! truncated, tampered or mismatched entry fails the check (or wasmtime's own header check)
//! and is recompiled, never loaded. The directory is created owner-only (0700); one that is
//! group- or world-writable is not trusted, and everything is compiled afresh.

use anyhow::{Context, Result};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use wasmtime::Engine;
use wasmtime::component::Component;

/// How a component was obtained, for `smart-context plugins` and the startup benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Compiled,
    Cached,
}

pub struct ComponentCache {
    dir: Option<PathBuf>,
    engine_key: String,
}

impl ComponentCache {
    /// A cache in `dir`, or a pass-through one (always compiling) when the directory cannot be
    /// created or is writable by others.
    pub fn open(dir: &Path, engine: &Engine) -> Self {
        let engine_key = engine_key(engine);
        match prepare_dir(dir) {
            Ok(()) => Self {
                dir: Some(dir.to_path_buf()),
                engine_key,
            },
            Err(err) => {
                tracing::warn!("component cache disabled ({}): {err:#}", dir.display());
                Self {
                    dir: None,
                    engine_key,
                }
            }
        }
    }

    pub fn load_or_compile(
        &self,
        engine: &Engine,
        wasm: &[u8],
        sha256: &str,
    ) -> Result<(Component, Origin)> {
        if let Some(component) = self.load(engine, sha256) {
            return Ok((component, Origin::Cached));
        }
        let component = Component::new(engine, wasm)
            .map_err(anyhow::Error::from)
            .context("compiling component")?;
        if let Some(dir) = &self.dir
            && let Err(err) = self.store(dir, sha256, &component)
        {
            tracing::warn!("caching compiled component failed: {err:#}");
        }
        Ok((component, Origin::Compiled))
    }

    fn paths(&self, dir: &Path, sha256: &str) -> (PathBuf, PathBuf) {
        let stem = format!("{sha256}-{}", self.engine_key);
        (
            dir.join(format!("{stem}.cwasm")),
            dir.join(format!("{stem}.blake3")),
        )
    }

    fn load(&self, engine: &Engine, sha256: &str) -> Option<Component> {
        let dir = self.dir.as_ref()?;
        let (artifact, checksum) = self.paths(dir, sha256);
        let bytes = std::fs::read(&artifact).ok()?;
        let expected = std::fs::read_to_string(&checksum).ok()?;
        if blake3::hash(&bytes).to_hex().as_str() != expected.trim() {
            tracing::warn!(
                "cached artifact {} fails its checksum; recompiling",
                artifact.display()
            );
            return None;
        }
        // SAFETY: the bytes are exactly what this host serialized (checksum above, owner-only
        // directory), and wasmtime verifies the engine configuration in the artifact header.
        match unsafe { Component::deserialize(engine, &bytes) } {
            Ok(component) => Some(component),
            Err(err) => {
                tracing::warn!(
                    "cached artifact {} rejected ({err}); recompiling",
                    artifact.display()
                );
                None
            }
        }
    }

    fn store(&self, dir: &Path, sha256: &str, component: &Component) -> Result<()> {
        let bytes = component.serialize()?;
        let (artifact, checksum) = self.paths(dir, sha256);
        write_atomic(&artifact, &bytes)?;
        write_atomic(&checksum, blake3::hash(&bytes).to_hex().as_bytes())
    }
}

/// wasmtime's version plus the engine's compatibility hash, so an upgrade or a changed engine
/// configuration never loads an old artifact.
fn engine_key(engine: &Engine) -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut hasher);
    env!("CARGO_PKG_VERSION").hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

fn prepare_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(dir)?;
        if meta.permissions().mode() & 0o022 != 0 {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
                .context("directory is writable by others and cannot be made owner-only")?;
        }
    }
    Ok(())
}

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}
