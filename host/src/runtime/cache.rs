//! The on-disk cache of compiled components. An entry is keyed by the component's SHA-256 and
//! the engine's compatibility hash, and stored with the BLAKE3 of its artifact: a corrupt,
//! truncated, tampered or mismatched entry fails the check (or wasmtime's own header check)
//! and is recompiled, never loaded. The directory is created owner-only (0700); one that is
//! group- or world-writable is not trusted, and everything is compiled afresh.
//!
//! A component the engine refuses to compile (over a pooling limit, a feature the host does
//! not run) is remembered too, with the reason, keyed by the same hashes and the operator's
//! limits: the next start refuses it in microseconds instead of compiling for seconds again,
//! and raising a limit or changing the component tries afresh.

use crate::config::Limits;
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
    /// The limits a compilation was refused under.
    limits_key: String,
}

impl ComponentCache {
    /// A cache in `dir`, or a pass-through one (always compiling) when the directory cannot be
    /// created or is writable by others.
    pub fn open(dir: &Path, engine: &Engine, limits: &Limits) -> Self {
        let engine_key = engine_key(engine);
        let limits_key = short_hash(&format!("{limits:?}"));
        let dir = match prepare_dir(dir) {
            Ok(()) => Some(dir.to_path_buf()),
            Err(err) => {
                tracing::warn!("component cache disabled ({}): {err:#}", dir.display());
                None
            }
        };
        Self {
            dir,
            engine_key,
            limits_key,
        }
    }

    pub fn load_or_compile(
        &self,
        engine: &Engine,
        wasm: &[u8],
        sha256: &str,
    ) -> Result<(Component, Origin)> {
        match self.load(engine, sha256) {
            Loaded::Hit(component) => {
                prepare_memory_images(&component)?;
                return Ok((component, Origin::Cached));
            }
            Loaded::Refused(reason) => {
                let reason = format!("compiling component: {}", explain_refusal(&reason));
                self.remember_refusal(sha256, &reason);
                anyhow::bail!(reason);
            }
            Loaded::Miss => {}
        }
        if let Some(reason) = self.refusal(sha256) {
            anyhow::bail!(
                "{reason} (remembered from an earlier start: this build is not compiled again)"
            );
        }
        let component = match Component::new(engine, wasm) {
            Ok(component) => component,
            Err(err) => {
                let error = format!("{err:#}");
                let reason = format!("compiling component: {}", explain_refusal(&error));
                // Only what the same bytes meet again: not running out of memory, say.
                if is_deterministic(&error) {
                    self.remember_refusal(sha256, &reason);
                }
                anyhow::bail!(reason);
            }
        };
        if let Some(dir) = &self.dir
            && let Err(err) = self.store(dir, sha256, &component)
        {
            tracing::warn!("caching compiled component failed: {err:#}");
        }
        prepare_memory_images(&component)?;
        Ok((component, Origin::Compiled))
    }

    fn refusal_path(&self, sha256: &str) -> Option<PathBuf> {
        let dir = self.dir.as_ref()?;
        Some(dir.join(format!(
            "{sha256}-{}-{}.refused",
            self.engine_key, self.limits_key
        )))
    }

    fn refusal(&self, sha256: &str) -> Option<String> {
        let text = std::fs::read_to_string(self.refusal_path(sha256)?).ok()?;
        Some(text.trim().to_string()).filter(|t| !t.is_empty())
    }

    fn remember_refusal(&self, sha256: &str, reason: &str) {
        if let Some(path) = self.refusal_path(sha256)
            && let Err(err) = write_atomic(&path, reason.as_bytes())
        {
            tracing::warn!("remembering a refused component failed: {err:#}");
        }
    }

    fn paths(&self, dir: &Path, sha256: &str) -> (PathBuf, PathBuf) {
        let stem = format!("{sha256}-{}", self.engine_key);
        (
            dir.join(format!("{stem}.cwasm")),
            dir.join(format!("{stem}.blake3")),
        )
    }

    fn load(&self, engine: &Engine, sha256: &str) -> Loaded {
        let Some(dir) = self.dir.as_ref() else {
            return Loaded::Miss;
        };
        let (artifact, checksum) = self.paths(dir, sha256);
        let (Ok(bytes), Ok(expected)) =
            (std::fs::read(&artifact), std::fs::read_to_string(&checksum))
        else {
            return Loaded::Miss;
        };
        if blake3::hash(&bytes).to_hex().as_str() != expected.trim() {
            tracing::warn!(
                "cached artifact {} fails its checksum; recompiling",
                artifact.display()
            );
            return Loaded::Miss;
        }
        // SAFETY: the bytes are exactly what this host serialized (checksum above, owner-only
        // directory), and wasmtime verifies the engine configuration in the artifact header.
        match unsafe { Component::deserialize(engine, &bytes) } {
            Ok(component) => Loaded::Hit(component),
            // The artifact is sound but over the operator's limits: compiling it again would
            // end the same way.
            Err(err) if is_over_limits(&format!("{err:#}")) => Loaded::Refused(format!("{err:#}")),
            Err(err) => {
                tracing::warn!(
                    "cached artifact {} rejected ({err}); recompiling",
                    artifact.display()
                );
                Loaded::Miss
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

/// Builds the copy-on-write images of the component's linear memories now, at load, rather
/// than at its first instantiation. On Linux each image is a sealed memfd, and the kernel
/// answers the seal with EBUSY while some of the freshly written pages are still referenced
/// elsewhere (another core's page batches, on a loaded machine): a passing condition, so the
/// image is tried again after a pause before the component is refused. wasmtime keeps no
/// failed image, so a later try starts clean.
fn prepare_memory_images(component: &Component) -> Result<()> {
    const PAUSES_MS: [u64; 5] = [10, 40, 160, 640, 1280];
    let mut pauses = PAUSES_MS.iter();
    loop {
        match component.initialize_copy_on_write_image() {
            Ok(()) => return Ok(()),
            Err(err) => match pauses.next() {
                Some(&ms) => {
                    tracing::debug!("memory image not ready ({err:#}); trying again in {ms} ms");
                    std::thread::sleep(std::time::Duration::from_millis(ms));
                }
                None => {
                    anyhow::bail!(
                        "preparing the component's initial memory image: {err:#} (the kernel \
                         refused it several times; try again when the machine is less loaded)"
                    );
                }
            },
        }
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

fn short_hash(text: &str) -> String {
    blake3::hash(text.as_bytes()).to_hex()[..16].to_string()
}

/// A refusal the same component meets again under the same engine and limits: over a limit,
/// a feature the engine does not run, bytes that do not validate.
fn is_deterministic(error: &str) -> bool {
    is_over_limits(error)
        || error.contains("component model async")
        || error.contains("failed to parse WebAssembly")
        || error.contains("WebAssembly translation error")
}

fn is_over_limits(error: &str) -> bool {
    error.contains("pooling allocator") || error.contains("exceeds the configured maximum")
}

/// What looking in the cache found.
enum Loaded {
    Hit(Component),
    Miss,
    /// The cached artifact is over the engine's limits.
    Refused(String),
}

/// What the engine said, and what avoids it: the limit the operator can raise, or the
/// toolchain flag that leaves the feature out.
pub fn explain_refusal(error: &str) -> String {
    if error.contains("component model async") {
        return format!(
            "{error}; the component uses the component model's async ABI, which this host does not run: build it without (jco's QuickJS backend: --backend-qjs-disable-async; componentize-py and jco's default StarlingMonkey backend do not need it)"
        );
    }
    if is_over_limits(error) {
        return format!(
            "{error}; the operator can raise it under [limits]: core_instances_per_component, memories_per_component, tables_per_component"
        );
    }
    error.to_string()
}

fn prepare_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        // Compiled code is loaded from here: a directory another user made (a shared /tmp
        // fallback created first by someone else) or a link to one is not ours to trust.
        let meta = std::fs::symlink_metadata(dir)?;
        if meta.file_type().is_symlink() {
            anyhow::bail!("it is a symbolic link");
        }
        // SAFETY: geteuid has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        if meta.uid() != me {
            anyhow::bail!("it belongs to another user (uid {})", meta.uid());
        }
        if meta.permissions().mode() & 0o022 != 0 {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
                .context("directory is writable by others and cannot be made owner-only")?;
        }
    }
    Ok(())
}

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    // A name of its own per write: two threads storing one artifact never share a temp file.
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = path.with_extension(format!("tmp-{}-{n}", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}
