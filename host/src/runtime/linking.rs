//! What a plugin's imports are linked to: the host interfaces it was granted, WASI over a
//! context that grants nothing, a stub that answers `ACCESS_DENIED` for a host interface it
//! imports but was not granted, and a trapping stub for any other WASI interface its
//! toolchain brings along (wasi:http in JavaScript's StarlingMonkey runtime). A toolchain that
//! imports every interface of a world thus needs only the grants the plugin really uses, and
//! nothing it was not granted is reachable.

use super::bindings::HostState;
use super::bindings::pillar::smart_context::plugin as wit;
use super::plugins::{Interface, ours};
use std::collections::BTreeSet;
use wasmtime::Engine;
use wasmtime::component::types::{ComponentItem, Type};
use wasmtime::component::{Component, HasSelf, Linker, ResourceType, Val};

/// The linker for `component`: `granted` host interfaces for real, the rest of what it imports
/// denied (see the module's documentation).
pub(super) fn linker(
    engine: &Engine,
    component: &Component,
    plugin: &str,
    granted: &BTreeSet<Interface>,
) -> wasmtime::Result<Linker<HostState>> {
    let mut linker: Linker<HostState> = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
    wit::types::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s)?;
    // Each interface's getter notes its use, for the audit log.
    for interface in granted {
        use Interface as I;
        match interface {
            I::Log => wit::log::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s.used(I::Log))?,
            I::Workspace => wit::workspace::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| {
                s.used(I::Workspace)
            })?,
            I::Index => {
                wit::index::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s.used(I::Index))?
            }
            I::Status => {
                wit::status::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s.used(I::Status))?
            }
            I::Store => {
                wit::store::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s.used(I::Store))?
            }
            I::Memory => {
                wit::memory::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s.used(I::Memory))?
            }
            I::Edits => {
                wit::edits::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s.used(I::Edits))?
            }
            I::Tasks => {
                wit::tasks::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s.used(I::Tasks))?
            }
        }
    }
    deny_ungranted(&mut linker, engine, component, plugin, granted)?;
    trap_other_wasi(&mut linker, engine, component)?;
    Ok(linker)
}

/// Links each function of each host interface `component` imports without a grant to a stub:
/// a function that can answer an error answers `ACCESS_DENIED` naming the grant; one that
/// returns nothing (`log.log`) does nothing; one that must return a value (`status.status`)
/// fails the call with [`DeniedCall`], which the runtime reports as `ACCESS_DENIED` too. Each
/// attempt is noted for the audit log.
fn deny_ungranted(
    linker: &mut Linker<HostState>,
    engine: &Engine,
    component: &Component,
    plugin: &str,
    granted: &BTreeSet<Interface>,
) -> wasmtime::Result<()> {
    let ty = component.component_type();
    for (name, import) in ty.imports(engine) {
        let Some(interface) = host_interface(name) else {
            continue;
        };
        if granted.contains(&interface) {
            continue;
        }
        let ComponentItem::ComponentInstance(instance) = import.ty else {
            continue;
        };
        let mut stubs = linker.instance(name)?;
        for (function, item) in instance.exports(engine) {
            let ComponentItem::ComponentFunc(func) = item.ty else {
                continue;
            };
            let answers = match func.results().len() {
                0 => Answer::Nothing,
                1 if func.results().next().is_some_and(|t| is_error_result(&t)) => Answer::Error,
                _ => Answer::Value,
            };
            let what = format!("{}.{function}", interface.name());
            let denied = DeniedCall {
                message: format!(
                    "{plugin} called {what} without the {:?} grant",
                    interface.name()
                ),
                suggestion: format!(
                    "the operator grants it with grants = [\"{}\"] under [plugin.{plugin}] in smart-context.toml",
                    interface.name()
                ),
            };
            stubs.func_new(function, move |mut store, _, _, results| {
                store.data_mut().denied_call(&what);
                match answers {
                    Answer::Nothing => Ok(()),
                    Answer::Error => {
                        results[0] = Val::Result(Err(Some(Box::new(access_denied(
                            &denied.message,
                            &denied.suggestion,
                        )))));
                        Ok(())
                    }
                    Answer::Value => Err(wasmtime::Error::new(denied.clone())),
                }
            })?;
        }
    }
    Ok(())
}

/// What a denied function gives back.
#[derive(Clone, Copy)]
enum Answer {
    /// It returns nothing: the call is dropped.
    Nothing,
    /// It returns `result<_, error>`: ACCESS_DENIED.
    Error,
    /// It must return a value: the plugin's call fails with [`DeniedCall`].
    Value,
}

/// A plugin called a host function it was not granted that has no error to answer with: its
/// call fails, reported as ACCESS_DENIED with this message and suggestion.
#[derive(Debug, Clone)]
pub struct DeniedCall {
    pub message: String,
    pub suggestion: String,
}

impl std::fmt::Display for DeniedCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}; {}", self.message, self.suggestion)
    }
}

impl std::error::Error for DeniedCall {}

/// The WASI packages wasmtime-wasi links (over the context that grants nothing).
const LINKED_WASI: [&str; 6] = ["cli", "io", "random", "clocks", "filesystem", "sockets"];

/// Links every other WASI interface the component imports (the check at declaration let only
/// WASI through) to functions that trap and resources nothing can make: the import is
/// satisfied, and nothing is behind it. A resource the interface takes from another one
/// (`use wasi:io/poll.{pollable}`) is already the other's, and left to it.
fn trap_other_wasi(
    linker: &mut Linker<HostState>,
    engine: &Engine,
    component: &Component,
) -> wasmtime::Result<()> {
    let ty = component.component_type();
    let mut seen = Vec::new();
    for (name, import) in ty.imports(engine) {
        let ComponentItem::ComponentInstance(instance) = import.ty else {
            continue;
        };
        let unlinked = name
            .strip_prefix("wasi:")
            .and_then(|rest| rest.split('/').next())
            .is_some_and(|package| !LINKED_WASI.contains(&package));
        let mut stubs = if unlinked {
            Some(linker.instance(name)?)
        } else {
            None
        };
        for (export, item) in instance.exports(engine) {
            match item.ty {
                ComponentItem::Resource(resource) => {
                    if seen.contains(&resource) {
                        continue;
                    }
                    seen.push(resource);
                    if let Some(stubs) = stubs.as_mut() {
                        stubs.resource(export, ResourceType::host::<Unlinked>(), |_, _| Ok(()))?;
                    }
                }
                ComponentItem::ComponentFunc(_) => {
                    if let Some(stubs) = stubs.as_mut() {
                        let what = format!("{name}#{export}");
                        stubs.func_new(export, move |_, _, _, _| {
                            wasmtime::bail!(
                                "{what}: plugins get no network and no WASI beyond an empty context"
                            )
                        })?;
                    }
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// The host type behind a resource of a WASI interface the host does not implement: none is
/// ever made.
struct Unlinked;

/// The host interface an import name refers to (`smart-context:plugin/memory@0.2.1`).
fn host_interface(import: &str) -> Option<Interface> {
    ours(import).and_then(|(interface, _)| Interface::parse(interface))
}

/// `result<_, error>` with the contract's error record.
fn is_error_result(ty: &Type) -> bool {
    let Type::Result(result) = ty else {
        return false;
    };
    let Some(Type::Record(record)) = result.err() else {
        return false;
    };
    let fields: Vec<&str> = record.fields().map(|f| f.name).collect();
    fields == ["code", "message", "suggestion", "details-json"]
}

fn access_denied(message: &str, suggestion: &str) -> Val {
    Val::Record(vec![
        (
            "code".into(),
            Val::String(crate::error::codes::ACCESS_DENIED.into()),
        ),
        ("message".into(), Val::String(message.into())),
        (
            "suggestion".into(),
            Val::Option(Some(Box::new(Val::String(suggestion.into())))),
        ),
        ("details-json".into(), Val::Option(None)),
    ])
}
