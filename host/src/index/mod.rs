//! Search and structure over the workspace. For now a literal scan (ignore rules honoured,
//! sensitive and binary files skipped) and a line-based outline of top-level definitions; the
//! index issue replaces both with tantivy and tree-sitter behind the same host functions.

pub mod outline;
pub mod search;
