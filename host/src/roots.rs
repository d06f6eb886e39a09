//! The workspace roots one server serves, by the names tools take (`root`), and the one place
//! that decides which root a call acts in. Each root has its own services (workspace, index,
//! store and journal, memory); the plugin runtime is shared.

use crate::error::{HostError, HostResult, codes};
use crate::services::Services;
use serde_json::{Map, Value, json};
use std::path::Path;
use std::sync::{Arc, RwLock};

/// The argument every tool takes to name the root it acts in.
pub const ARGUMENT: &str = "root";

/// A root and the name tools know it by.
#[derive(Clone)]
pub struct Root {
    pub name: String,
    pub services: Arc<Services>,
}

/// The roots, in the order they were given; the first is the runtime's own.
#[derive(Default)]
pub struct Roots {
    list: RwLock<Vec<Root>>,
}

/// The name a root gets unless the operator names it: its directory's name, with characters
/// other than letters, digits, `.`, `_` and `-` made `-` (`root` for `/`).
pub fn default_name(path: &Path) -> String {
    let name: String = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    if name.is_empty() {
        "root".to_string()
    } else {
        name
    }
}

impl Roots {
    pub fn new(first: Root) -> Self {
        Roots {
            list: RwLock::new(vec![first]),
        }
    }

    /// Every root, in order.
    pub fn all(&self) -> Vec<Root> {
        self.list.read().unwrap_or_else(|p| p.into_inner()).clone()
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

    /// The root a call's arguments name (taking `root` out of them), or the only one. A call
    /// that names no root on a server with several is refused with their names, as is a name
    /// the server does not serve: the agent picks among the operator's roots, never a path.
    pub fn route(&self, tool: &str, args: &mut Map<String, Value>) -> HostResult<Root> {
        let list = self.all();
        let named = match args.remove(ARGUMENT) {
            None | Some(Value::Null) => None,
            Some(Value::String(name)) => Some(name),
            Some(other) => {
                return Err(HostError::new(
                    codes::INVALID_ARGS,
                    format!("root must be a root's name (a string), not {other}"),
                )
                .suggest(suggestion(&list))
                .details(listing(&list)));
            }
        };
        match named {
            Some(name) => list
                .iter()
                .find(|r| r.name == name)
                .cloned()
                .ok_or_else(|| {
                    HostError::new(codes::INVALID_ARGS, format!("no root named {name:?}"))
                        .suggest(suggestion(&list))
                        .details(listing(&list))
                }),
            None if list.len() == 1 => Ok(list[0].clone()),
            None => Err(HostError::new(
                codes::INVALID_ARGS,
                format!(
                    "this server serves {} roots and {tool} acts in one: name it",
                    list.len()
                ),
            )
            .suggest(suggestion(&list))
            .details(listing(&list))),
        }
    }
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
        .map(|r| json!({ "name": r.name, "path": r.services.workspace.root().display().to_string() }))
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
