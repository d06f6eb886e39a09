//! The workspace roots one server serves, by the names tools take (`root`), and the one place
//! that decides which root a call acts in. Each root has its own services (workspace, index,
//! store and journal, memory); the plugin runtime is shared.

pub mod explore;

use crate::config::{RootEntry, RootPolicy};
use crate::error::{HostError, HostResult, codes};
use crate::services::Services;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

/// The argument every tool takes to name the root it acts in.
pub const ARGUMENT: &str = "root";

/// The longest name a client's root gets (names travel in every item, id and cursor).
const MAX_CLIENT_NAME: usize = 64;

/// A root and the name tools know it by.
#[derive(Clone)]
pub struct Root {
    pub name: String,
    pub services: Arc<Services>,
}

/// A root to open: its directory, the name the operator gave it, its policy.
#[derive(Debug, Clone)]
pub struct Spec {
    pub path: PathBuf,
    pub name: Option<String>,
    pub policy: RootPolicy,
}

impl Spec {
    /// The root's name: the operator's, else its directory's (`path` canonical).
    pub fn name_for(&self, path: &Path) -> String {
        self.name.clone().unwrap_or_else(|| default_name(path))
    }
}

/// The roots to serve: those given with `--root` (a `[[roots]]` entry for the same directory
/// lends its name and policy; one inside a read-only entry, or holding one, is read-only),
/// else the operator's `[[roots]]`, else the current directory.
pub fn to_serve(given: &[PathBuf], entries: &[RootEntry]) -> anyhow::Result<Vec<Spec>> {
    for entry in entries {
        if let Some(name) = &entry.name
            && !is_valid_name(name)
        {
            anyhow::bail!(
                "[[roots]] name {name:?} ({}): use letters, digits, `.`, `_` and `-` only",
                entry.path.display()
            );
        }
    }
    let spec = |e: &RootEntry| Spec {
        path: e.path.clone(),
        name: e.name.clone(),
        policy: e.policy,
    };
    if given.is_empty() {
        if entries.is_empty() {
            return Ok(vec![Spec {
                path: PathBuf::from("."),
                name: None,
                policy: RootPolicy::ReadWrite,
            }]);
        }
        return Ok(entries.iter().map(spec).collect());
    }
    let canonical: Vec<Option<PathBuf>> = entries
        .iter()
        .map(|e| std::fs::canonicalize(&e.path).ok())
        .collect();
    Ok(given
        .iter()
        .map(|path| {
            let here = std::fs::canonicalize(path).ok();
            let entry = here.as_ref().and_then(|here| {
                entries
                    .iter()
                    .zip(&canonical)
                    .find(|(_, c)| c.as_ref() == Some(here))
                    .map(|(e, _)| e)
            });
            let mut served = match entry {
                Some(entry) => Spec {
                    path: path.clone(),
                    ..spec(entry)
                },
                None => Spec {
                    path: path.clone(),
                    name: None,
                    policy: RootPolicy::ReadWrite,
                },
            };
            // A directory inside a read-only root, or holding one, is read-only too: another
            // spelling of the same files must not lift the operator's policy.
            let overlaps_read_only = here.as_ref().is_some_and(|here| {
                entries.iter().zip(&canonical).any(|(e, c)| {
                    e.policy == RootPolicy::ReadOnly
                        && c.as_ref()
                            .is_some_and(|c| here.starts_with(c) || c.starts_with(here))
                })
            });
            if overlaps_read_only {
                served.policy = RootPolicy::ReadOnly;
            }
            served
        })
        .collect())
}

fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// The name a root gets unless the operator names it: its directory's name, with characters
/// other than letters, digits, `.`, `_` and `-` made `-` (`root` for `/`).
pub fn default_name(path: &Path) -> String {
    let name = safe_name(
        &path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    );
    if name.is_empty() {
        "root".to_string()
    } else {
        name
    }
}

/// The roots this process serves: the operator's (command line or `[[roots]]`), which every
/// session sees, and those MCP clients listed, each seen by the session that listed it. A
/// client's root stays open until the process ends, so listing it again costs no new pass.
#[derive(Default)]
pub struct Roots {
    list: RwLock<Vec<Root>>,
    clients: RwLock<Vec<Root>>,
}

impl Roots {
    pub fn new(first: Root) -> Self {
        Roots {
            list: RwLock::new(vec![first]),
            clients: RwLock::default(),
        }
    }

    /// The operator's roots, in order: what a session without roots of its own sees.
    pub fn all(&self) -> Vec<Root> {
        self.list.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Every root open in this process, the clients' too (what is flushed at exit).
    pub fn every(&self) -> Vec<Root> {
        let mut every = self.all();
        every.extend(
            self.clients
                .read()
                .unwrap_or_else(|p| p.into_inner())
                .clone(),
        );
        every
    }

    /// Adds `root`; refused when its name is taken, or its directory is one served already,
    /// or lies inside one or holds one (its files would be indexed twice, and an edit made
    /// through the outer root would go around the inner root's journal).
    pub fn add(&self, root: Root) -> anyhow::Result<()> {
        let mut list = self.list.write().unwrap_or_else(|p| p.into_inner());
        admissible(&list, &root.name, root.services.workspace.root())?;
        list.push(root);
        Ok(())
    }

    /// Why a root named `name` at `path` (canonical) cannot join these, checked before it is
    /// opened (opening makes its state directory).
    pub fn check(&self, name: &str, path: &Path) -> anyhow::Result<()> {
        admissible(
            &self.list.read().unwrap_or_else(|p| p.into_inner()),
            name,
            path,
        )
    }

    /// The client root at `path` (canonical): the one open already, else one `open` makes
    /// under the client's `wanted` name (made safe, at most 64 characters; its directory's
    /// when it has none; with a suffix from its path when taken, so a directory keeps its
    /// name across restarts). `None` when `path` is an operator root (every session has it).
    /// Refused when it overlaps an operator root or another client root, or when `max_open`
    /// client roots are open already.
    pub fn client_root(
        &self,
        path: &Path,
        wanted: Option<&str>,
        max_open: usize,
        open: impl FnOnce(&str) -> anyhow::Result<Arc<Services>>,
    ) -> anyhow::Result<Option<Root>> {
        let operator = self.all();
        if operator.iter().any(|r| r.services.workspace.root() == path) {
            return Ok(None);
        }
        let mut clients = self.clients.write().unwrap_or_else(|p| p.into_inner());
        if let Some(open) = clients.iter().find(|r| r.services.workspace.root() == path) {
            return Ok(Some(open.clone()));
        }
        anyhow::ensure!(
            clients.len() < max_open,
            "{max_open} client roots are open already ([client_roots] max_open)"
        );
        let mut base = wanted
            .map(safe_name)
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| default_name(path));
        base.truncate(MAX_CLIENT_NAME);
        let everyone: Vec<Root> = operator.iter().chain(clients.iter()).cloned().collect();
        let hash = blake3::hash(path.as_os_str().as_encoded_bytes()).to_hex();
        let name = [base.clone(), format!("{base}-{}", &hash[..8])]
            .into_iter()
            .find(|n| !everyone.iter().any(|r| &r.name == n))
            .ok_or_else(|| anyhow::anyhow!("the name {base:?} is taken"))?;
        admissible(&everyone, &name, path)?;
        let root = Root {
            name: name.clone(),
            services: open(&name)?,
        };
        clients.push(root.clone());
        Ok(Some(root))
    }
}

/// The root a call's arguments name (taking `root` out of them), among the roots of the
/// caller's `view`, or the only one. A call that names no root where there are several is
/// refused with their names, as is a name the view lacks: the agent picks among the roots
/// served, never a path.
pub fn route(view: &[Root], tool: &str, args: &mut Map<String, Value>) -> HostResult<Root> {
    let named = match args.remove(ARGUMENT) {
        None | Some(Value::Null) => None,
        Some(Value::String(name)) => Some(name),
        Some(other) => {
            return Err(HostError::new(
                codes::INVALID_ARGS,
                format!("root must be a root's name (a string), not {other}"),
            )
            .suggest(suggestion(view))
            .details(listing(view)));
        }
    };
    match named {
        Some(name) => view
            .iter()
            .find(|r| r.name == name)
            .cloned()
            .ok_or_else(|| {
                HostError::new(codes::INVALID_ARGS, format!("no root named {name:?}"))
                    .suggest(suggestion(view))
                    .details(listing(view))
            }),
        None if view.len() == 1 => Ok(view[0].clone()),
        None => Err(HostError::new(
            codes::INVALID_ARGS,
            format!(
                "this server serves {} roots and {tool} acts in one: name it",
                view.len()
            ),
        )
        .suggest(suggestion(view))
        .details(listing(view))),
    }
}

/// Letters, digits, `.`, `_` and `-`; anything else made `-`.
fn safe_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect()
}

fn admissible(list: &[Root], name: &str, path: &Path) -> anyhow::Result<()> {
    for other in list {
        let other_path = other.services.workspace.root();
        if other.name == name {
            anyhow::bail!(
                "two roots are named {name:?} ({} and {}): give one a directory of another name",
                other_path.display(),
                path.display()
            );
        }
        if path.starts_with(other_path) || other_path.starts_with(path) {
            anyhow::bail!(
                "roots {} and {} overlap: serve the outer one, or two that do not contain each other",
                other_path.display(),
                path.display()
            );
        }
    }
    Ok(())
}

fn suggestion(list: &[Root]) -> String {
    let names: Vec<&str> = list.iter().map(|r| r.name.as_str()).collect();
    format!("pass root: one of {}", names.join(", "))
}

/// `details.roots`: each root's name and directory.
fn listing(list: &[Root]) -> Value {
    let roots: Vec<Value> = list
        .iter()
        .map(|r| {
            let policy = if r.services.workspace.is_read_only() {
                RootPolicy::ReadOnly
            } else {
                RootPolicy::ReadWrite
            };
            json!({
                "name": r.name,
                "path": r.services.workspace.root().display().to_string(),
                "policy": policy,
            })
        })
        .collect();
    json!({ "roots": roots })
}

/// Names `root` in every ready-to-send follow-up call of an answer (`guidance`'s
/// `toolCall.args`, at any depth) that names none: on a server with several roots, the next
/// call the answer suggests acts where this one did.
pub fn name_in_follow_ups(answer: &mut Value, root: &str) {
    match answer {
        Value::Object(map) => {
            if let Some(Value::Object(call)) = map.get_mut("toolCall")
                && let Some(Value::Object(args)) = call.get_mut("args")
            {
                args.entry(ARGUMENT)
                    .or_insert_with(|| Value::String(root.to_string()));
            }
            map.values_mut().for_each(|v| name_in_follow_ups(v, root));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| name_in_follow_ups(v, root)),
        _ => {}
    }
}

/// The `root` property every tool's published input schema gets, whatever the plugin
/// declared (the host takes it out before the plugin sees the arguments).
pub fn schema_property() -> Value {
    json!({
        "type": "string",
        "description": "The workspace root to act in, by name: needed only when the server serves several (the names are in the error that asks for it).",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_names_are_directory_names_made_safe() {
        assert_eq!(default_name(Path::new("/src/my api")), "my-api");
        assert_eq!(default_name(Path::new("/src/web.app_2")), "web.app_2");
        assert_eq!(default_name(Path::new("/")), "root");
    }

    #[test]
    fn roots_come_from_the_command_line_else_the_operator() {
        let dir = tempfile::tempdir().unwrap();
        let (api, web) = (dir.path().join("api"), dir.path().join("web"));
        std::fs::create_dir_all(&api).unwrap();
        std::fs::create_dir_all(&web).unwrap();
        let entry = |name: &str, path: &Path, policy| RootEntry {
            name: Some(name.into()),
            path: path.to_path_buf(),
            policy,
        };
        let entries = [
            entry("backend", &api, RootPolicy::ReadWrite),
            entry("site", &web, RootPolicy::ReadOnly),
        ];
        let served = to_serve(&[], &entries).unwrap();
        let names: Vec<_> = served.iter().map(|s| s.name.as_deref()).collect();
        assert_eq!(names, [Some("backend"), Some("site")]);
        // A --root spelled another way still takes its entry's name and policy.
        let given = [dir.path().join("web/../web/")];
        let served = to_serve(&given, &entries).unwrap();
        assert_eq!(served.len(), 1);
        assert_eq!(served[0].name.as_deref(), Some("site"));
        assert_eq!(served[0].policy, RootPolicy::ReadOnly);
        // Inside a read-only root, or around one: read-only all the same.
        std::fs::create_dir_all(web.join("lib")).unwrap();
        for given in [web.join("lib"), dir.path().to_path_buf()] {
            let served = to_serve(std::slice::from_ref(&given), &entries).unwrap();
            assert_eq!(
                (served[0].name.as_deref(), served[0].policy),
                (None, RootPolicy::ReadOnly),
                "{}",
                given.display()
            );
        }
        let served = to_serve(
            std::slice::from_ref(&dir.path().to_path_buf()),
            &entries[..1],
        )
        .unwrap();
        assert_eq!(served[0].policy, RootPolicy::ReadWrite);
        assert_eq!(to_serve(&[], &[]).unwrap()[0].path, PathBuf::from("."));
        let bad = [entry("my api", &api, RootPolicy::ReadWrite)];
        assert!(to_serve(&[], &bad).is_err());
    }

    #[test]
    fn follow_ups_name_the_root_they_act_in() {
        let mut answer = json!({
            "guidance": { "suggestedActions": [
                { "toolCall": { "tool": "explore", "args": { "paths": ["a.rs"] } } },
                { "toolCall": { "tool": "manage", "args": { "command": "undo", "root": "web" } } },
            ]},
            "error": { "details": { "recoveryStrategies": [ { "toolCall": { "tool": "change", "args": {} } } ] } },
        });
        name_in_follow_ups(&mut answer, "api");
        let calls = &answer["guidance"]["suggestedActions"];
        assert_eq!(calls[0]["toolCall"]["args"]["root"], "api");
        assert_eq!(calls[1]["toolCall"]["args"]["root"], "web");
        let recovery = &answer["error"]["details"]["recoveryStrategies"][0];
        assert_eq!(recovery["toolCall"]["args"]["root"], "api");
    }
}
