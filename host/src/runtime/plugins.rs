//! Finding plugins and deciding what each may touch. A component's world is read from what it
//! exports (tool, parser or language); its imports must be allowed by that world. Built-in plugins are
//! granted their whole world; a third-party plugin only what smart-context.toml grants it, and
//! what it imports beyond its grants answers ACCESS_DENIED (`linking`). WASI reaches no file,
//! socket or variable: the host's interfaces are the only doors.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The contract version this host speaks. Within 0.2 the contract only grows, so the host
/// loads a component built for any 0.2 version (see [`compatible`]).
pub const CONTRACT_VERSION: &str = "0.2.3";

/// A component built for `version` may load on this host: the same 0.2 series. One built for
/// an older 0.2 imports a subset of what the host has; one built for a newer 0.2 links when it
/// imports nothing the host lacks (the link says which function is missing when it does).
pub fn compatible(version: &str) -> bool {
    version
        .strip_prefix("0.2.")
        .is_some_and(|patch| !patch.is_empty() && patch.bytes().all(|b| b.is_ascii_digit()))
}

/// The newest contract version among a component's imports and exports, when it is newer
/// than the host's: what a failed link is explained by.
pub fn newer_contract(names: &[String]) -> Option<String> {
    let patch = |v: &str| v.strip_prefix("0.2.").and_then(|p| p.parse::<u32>().ok());
    let host = patch(CONTRACT_VERSION)?;
    names
        .iter()
        .filter_map(|n| ours(n).map(|(_, v)| v))
        .filter(|v| patch(v).is_some_and(|p| p > host))
        .max_by_key(|v| patch(v))
        .map(str::to_string)
}
const PACKAGE: &str = "smart-context:plugin/";

/// A name of the contract's (`smart-context:plugin/log@0.2.1`) as its interface and version
/// (`("log", "0.2.1")`); None for another package. The one place that reads those names.
pub(super) fn ours(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix(PACKAGE)?;
    Some(rest.split_once('@').unwrap_or((rest, "")))
}

/// A host interface a plugin can import (the `types` interface carries no functions and is
/// always available).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Interface {
    Log,
    Workspace,
    Index,
    Status,
    Store,
    Memory,
    Edits,
    Tasks,
}

impl Interface {
    pub const ALL: [Interface; 8] = [
        Interface::Log,
        Interface::Workspace,
        Interface::Index,
        Interface::Status,
        Interface::Store,
        Interface::Memory,
        Interface::Edits,
        Interface::Tasks,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Interface::Log => "log",
            Interface::Workspace => "workspace",
            Interface::Index => "index",
            Interface::Status => "status",
            Interface::Store => "store",
            Interface::Memory => "memory",
            Interface::Edits => "edits",
            Interface::Tasks => "tasks",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|i| i.name() == name)
    }
}

/// The worlds of the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum World {
    Pillar,
    EditingPillar,
    FormatParser,
    /// A programming language's structure (since 0.2.2).
    CodeParser,
}

impl World {
    pub fn name(self) -> &'static str {
        match self {
            World::Pillar => "pillar",
            World::EditingPillar => "editing-pillar",
            World::FormatParser => "format-parser",
            World::CodeParser => "code-parser",
        }
    }

    /// The host interfaces the world imports.
    pub fn interfaces(self) -> BTreeSet<Interface> {
        use Interface::*;
        match self {
            World::FormatParser | World::CodeParser => [Log].into(),
            World::Pillar => [Log, Workspace, Index, Status, Store, Memory].into(),
            World::EditingPillar => {
                [Log, Workspace, Index, Status, Store, Memory, Edits, Tasks].into()
            }
        }
    }

    pub fn is_tool(self) -> bool {
        matches!(self, World::Pillar | World::EditingPillar)
    }
}

/// Components compiled into the binary: (name, bytes, SHA-256 in hex computed by the build),
/// what an installed binary runs. The hash comes with them so a start does not hash ~60 MB of
/// components (the code parsers' grammars) before it can answer.
pub type Embedded = &'static [(&'static str, &'static [u8], &'static str)];

/// Where the build's own plugins come from.
#[derive(Debug, Clone, Default)]
pub enum Builtins {
    /// None at all: only operator plugin directories (a server without pillars then refuses
    /// to start).
    #[default]
    None,
    /// `*.wasm` files in a directory (a development build, or $SMART_CONTEXT_PLUGIN_DIR).
    Dir(PathBuf),
    /// Compiled into the executable.
    Embedded(Embedded),
}

impl Builtins {
    pub fn describe(&self) -> String {
        match self {
            Builtins::None => "none".into(),
            Builtins::Dir(dir) => dir.display().to_string(),
            Builtins::Embedded(list) => format!("{} embedded in the executable", list.len()),
        }
    }
}

/// Where a plugin came from: the build's own plugins (a file, or embedded), or an operator's
/// plugin directory.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    Builtin(PathBuf),
    /// The bytes and their SHA-256 (hex), hashed by the build.
    Embedded(&'static [u8], &'static str),
    Directory(PathBuf),
}

impl Source {
    /// The component's bytes.
    pub fn read(&self) -> Result<std::borrow::Cow<'static, [u8]>, String> {
        match self {
            Source::Embedded(bytes, _) => Ok(std::borrow::Cow::Borrowed(bytes)),
            Source::Builtin(p) | Source::Directory(p) => std::fs::read(p)
                .map(std::borrow::Cow::Owned)
                .map_err(|e| format!("reading {}: {e}", p.display())),
        }
    }

    /// Built with the host (file or embedded): trusted with its world's interfaces.
    pub fn is_builtin(&self) -> bool {
        !matches!(self, Source::Directory(_))
    }

    pub fn describe(&self) -> String {
        match self {
            Source::Builtin(p) => format!("builtin {}", p.display()),
            Source::Embedded(..) => "builtin (embedded)".into(),
            Source::Directory(p) => format!("plugin dir {}", p.display()),
        }
    }
}

/// A `*.wasm` file found on disk, named after its file stem.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub name: String,
    pub source: Source,
}

/// Built-in plugins first, then each extra directory in order; files sorted by name.
pub fn discover(builtins: &Builtins, extra_dirs: &[PathBuf]) -> Vec<Candidate> {
    let mut found = Vec::new();
    match builtins {
        Builtins::None => {}
        Builtins::Dir(dir) => {
            found.extend(wasm_files(dir).into_iter().map(|(name, path)| Candidate {
                name,
                source: Source::Builtin(path),
            }))
        }
        Builtins::Embedded(list) => {
            found.extend(list.iter().map(|(name, bytes, sha256)| Candidate {
                name: name.to_string(),
                source: Source::Embedded(bytes, sha256),
            }))
        }
    }
    for dir in extra_dirs {
        if !dir.is_dir() {
            tracing::warn!("plugin directory {} does not exist", dir.display());
        }
        found.extend(wasm_files(dir).into_iter().map(|(name, path)| Candidate {
            name,
            source: Source::Directory(path),
        }));
    }
    found
}

fn wasm_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(String, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "wasm") && p.is_file())
        .filter_map(|p| Some((p.file_stem()?.to_str()?.to_string(), p)))
        .collect();
    files.sort();
    files
}

/// The world a component implements and the host interfaces it imports, from the names of
/// its top-level imports and exports (see `header`), or why it cannot be loaded at all.
pub fn classify(
    imports: &[String],
    exports: &[String],
) -> Result<(World, BTreeSet<Interface>), String> {
    let exported: Vec<&str> = ["tool", "parser", "language"]
        .into_iter()
        .filter(|interface| exports.iter().any(|e| is_ours(e, interface)))
        .collect();
    let mut imported = BTreeSet::new();
    for name in imports {
        imported.extend(check_import(name)?);
    }
    let world = match exported.as_slice() {
        ["tool"] if imported.contains(&Interface::Edits) => World::EditingPillar,
        ["tool"] => World::Pillar,
        ["parser"] => World::FormatParser,
        ["language"] => World::CodeParser,
        [] => {
            return Err(format!(
                "exports none of {PACKAGE}tool, {PACKAGE}parser or {PACKAGE}language (@{CONTRACT_VERSION}) (exports: {})",
                exports.join(", ")
            ));
        }
        several => {
            return Err(format!(
                "exports {}; a plugin implements one world",
                several.join(" and ")
            ));
        }
    };
    let allowed = world.interfaces();
    if let Some(extra) = imported.iter().find(|i| !allowed.contains(i)) {
        return Err(format!(
            "imports {PACKAGE}{}, which the {} world does not allow (it allows: {})",
            extra.name(),
            world.name(),
            names(&allowed)
        ));
    }
    Ok((world, imported))
}

/// Refuses imports the host never provides: other packages, other contract versions. WASI's
/// cli, io, random, clocks, filesystem and sockets are linked to a context that grants nothing
/// (no preopened directory, no network, no environment, no inherited stdio: see `bindings`),
/// so a toolchain's default output loads and its attempts answer errors; any other WASI
/// interface (wasi:http, which JavaScript runtimes import for `fetch`) traps when called.
/// Files reach a plugin only through the host's `workspace` interface.
fn check_import(name: &str) -> Result<Option<Interface>, String> {
    if let Some((interface, version)) = ours(name) {
        if !compatible(version) {
            return Err(format!(
                "imports {name}: built for contract {version:?}, this host speaks {CONTRACT_VERSION} and loads components built for 0.2.x"
            ));
        }
        if interface == "types" {
            return Ok(None);
        }
        return Interface::parse(interface)
            .map(Some)
            .ok_or_else(|| format!("imports unknown interface {name}"));
    }
    if name.starts_with("wasi:") {
        return Ok(None);
    }
    Err(format!("imports {name}, which this host does not provide"))
}

/// The config entry that loads the component at `path` as it is: its name, its hash pinned,
/// the grants its imports need, and `enabled` for a tool (a parser serves its files once
/// loaded). Checked as a load would check it (world and imports), nothing compiled.
pub fn pin_entry(path: &std::path::Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let header = super::header::read(&bytes)?;
    let (world, imports) = classify(&header.imports, &header.exports)?;
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or_else(|| format!("{} has no file name to load it by", path.display()))?;
    let grants: Vec<String> = imports.iter().map(|i| format!("{:?}", i.name())).collect();
    // Config paths are relative to the config file: the directory is given absolute.
    let dir = path
        .canonicalize()
        .ok()
        .and_then(|p| p.parent().map(|d| d.display().to_string()))
        .unwrap_or_else(|| ".".into());
    let mut entry = format!(
        "# {} ({} world); its directory goes in plugin_dirs: plugin_dirs = [{:?}]\n[plugin.{name}]\nsha256 = \"{}\"\ngrants = [{}]\n",
        path.display(),
        world.name(),
        dir,
        crate::config::sha256_hex(&bytes),
        grants.join(", ")
    );
    if world.is_tool() {
        entry.push_str("enabled = true\n");
    }
    Ok(entry)
}

/// Grants named in the config, or an error naming the unknown one.
pub fn parse_grants(names: &[String]) -> Result<BTreeSet<Interface>, String> {
    names
        .iter()
        .filter(|n| *n != SENSITIVE_GRANT)
        .map(|n| {
            Interface::parse(n).ok_or_else(|| {
                format!("unknown grant {n:?} (known: log, workspace, index, status, store, memory, edits, tasks, sensitive)")
            })
        })
        .collect()
}

/// The grant that lets a plugin read sensitive files when (and only when) the agent opted in
/// for that call. Not an interface: it widens what `workspace.read` may return. The built-in
/// explore has it; a third-party plugin only if the operator lists it.
pub const SENSITIVE_GRANT: &str = "sensitive";

fn is_ours(export: &str, interface: &str) -> bool {
    ours(export).is_some_and(|(name, version)| name == interface && compatible(version))
}

pub fn names(set: &BTreeSet<Interface>) -> String {
    set.iter().map(|i| i.name()).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wasi_links_to_nothing_and_other_packages_are_refused() {
        assert_eq!(check_import("wasi:filesystem/preopens@0.2.6"), Ok(None));
        assert_eq!(check_import("wasi:sockets/tcp@0.2.6"), Ok(None));
        assert_eq!(check_import("wasi:http/outgoing-handler@0.2.6"), Ok(None));
        assert_eq!(check_import("wasi:cli/stderr@0.2.6"), Ok(None));
        assert_eq!(check_import("smart-context:plugin/types@0.2.0"), Ok(None));
        assert_eq!(check_import("smart-context:plugin/types@0.2.1"), Ok(None));
        assert!(check_import("smart-context:plugin/types@0.3.0").is_err());
        assert!(check_import("smart-context:plugin/types@0.2.x").is_err());
        assert_eq!(
            check_import("smart-context:plugin/edits@0.2.0"),
            Ok(Some(Interface::Edits))
        );
        assert!(check_import("smart-context:plugin/edits@0.1.0").is_err());
        assert!(check_import("evil:net/socket").is_err());
    }

    #[test]
    fn the_0_2_series_is_one_contract() {
        assert!(compatible("0.2.0") && compatible("0.2.1") && compatible("0.2.17"));
        assert!(!compatible("0.3.0") && !compatible("0.2") && !compatible("1.2.1"));
        assert!(is_ours("smart-context:plugin/tool@0.2.0", "tool"));
        assert!(!is_ours("smart-context:plugin/tool@0.1.0", "tool"));
        let names = [
            "smart-context:plugin/log@0.2.0".to_string(),
            "smart-context:plugin/index@0.2.9".to_string(),
        ];
        assert_eq!(newer_contract(&names).as_deref(), Some("0.2.9"));
        assert_eq!(newer_contract(&names[..1]), None);
    }

    #[test]
    fn the_world_is_what_the_component_exports() {
        let log = ["smart-context:plugin/log@0.2.2".to_string()];
        let world = |exports: &[&str]| {
            let exports: Vec<String> = exports.iter().map(|e| e.to_string()).collect();
            classify(&log, &exports).map(|(w, _)| w)
        };
        assert_eq!(
            world(&["smart-context:plugin/language@0.2.2"]),
            Ok(World::CodeParser)
        );
        assert_eq!(
            world(&["smart-context:plugin/parser@0.2.0"]),
            Ok(World::FormatParser)
        );
        assert!(
            world(&[
                "smart-context:plugin/parser@0.2.2",
                "smart-context:plugin/language@0.2.2"
            ])
            .unwrap_err()
            .contains("one world")
        );
        assert!(world(&["smart-context:plugin/language@0.3.0"]).is_err());
        // A code parser that imports the index is refused, as a format parser would be.
        let index = ["smart-context:plugin/index@0.2.2".to_string()];
        let exports = ["smart-context:plugin/language@0.2.2".to_string()];
        assert!(
            classify(&index, &exports)
                .unwrap_err()
                .contains("does not allow")
        );
    }

    #[test]
    fn unknown_grants_are_refused() {
        assert!(parse_grants(&["log".into(), "root".into()]).is_err());
        assert_eq!(
            parse_grants(&["log".into(), "sensitive".into()]),
            Ok([Interface::Log].into())
        );
    }

    #[test]
    fn parsers_get_only_logging() {
        assert_eq!(World::FormatParser.interfaces(), [Interface::Log].into());
        assert_eq!(World::CodeParser.interfaces(), [Interface::Log].into());
        assert!(!World::CodeParser.is_tool());
        assert!(!World::Pillar.interfaces().contains(&Interface::Edits));
    }
}
