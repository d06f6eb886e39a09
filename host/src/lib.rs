//! smart-context: an MCP server that lets coding agents find, read, understand and safely
//! change a codebase, with every agent-facing tool and document parser a sandboxed WebAssembly
//! component.
//!
//! Data flows one way: [`mcp`] receives a call, [`runtime`] runs the pillar component in a
//! fresh instance, and the component's host-function imports reach [`workspace`], [`index`]
//! and [`store`] through [`services`].

pub mod analysis;
pub mod app;
pub mod authoring;
pub mod config;
pub mod error;
pub mod index;
pub mod mcp;
pub mod memory;
pub mod roots;
pub mod runtime;
pub mod services;
pub mod setup;
pub mod store;
pub mod tasks;
pub mod text;
pub mod workspace;
