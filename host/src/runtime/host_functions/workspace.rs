//! `workspace`: stat, read, list and walk under the root, as the workspace allows.

use super::to_wit;
use crate::runtime::bindings::HostState;
use crate::runtime::bindings::pillar::smart_context::plugin::{types, workspace};
use crate::workspace::{self as ws};

impl workspace::Host for HostState {
    fn stat(&mut self, path: String) -> Result<workspace::Entry, types::Error> {
        self.read_path(&path);
        let services = self.services()?;
        services.workspace.stat(&path).map(entry).map_err(to_wit)
    }

    fn read(
        &mut self,
        path: String,
        options: workspace::ReadOptions,
    ) -> Result<workspace::FileContent, types::Error> {
        self.read_path(&path);
        let services = self.services()?;
        let options = ws::ReadOptions {
            max_bytes: options.max_bytes,
            allow_sensitive: options.allow_sensitive && self.may_read_sensitive,
            allow_binary: options.allow_binary,
            allow_truncate: options.allow_truncate,
        };
        let file = services.workspace.read(&path, options).map_err(to_wit)?;
        Ok(workspace::FileContent {
            bytes: file.bytes,
            hash: file.hash,
            size: file.size,
            binary: file.binary,
            truncated: file.truncated,
        })
    }

    fn walk(
        &mut self,
        path: String,
        options: workspace::WalkOptions,
    ) -> Result<workspace::WalkResult, types::Error> {
        self.read_path(&path);
        let services = self.services()?;
        let (files, truncated) = services
            .workspace
            .walk(
                &path,
                options.max_depth.min(64) as usize,
                options.max_files.min(100_000) as usize,
                options.glob.as_deref(),
            )
            .map_err(to_wit)?;
        Ok(workspace::WalkResult {
            files: files.into_iter().map(entry).collect(),
            truncated,
        })
    }

    fn list_dir(&mut self, path: String) -> Result<Vec<workspace::Entry>, types::Error> {
        self.read_path(&path);
        let services = self.services()?;
        Ok(services
            .workspace
            .list(&path)
            .map_err(to_wit)?
            .into_iter()
            .map(entry)
            .collect())
    }
}

fn entry(e: ws::Entry) -> workspace::Entry {
    workspace::Entry {
        path: e.path,
        kind: match e.kind {
            ws::EntryKind::File => workspace::EntryKind::File,
            ws::EntryKind::Directory => workspace::EntryKind::Directory,
            ws::EntryKind::Symlink => workspace::EntryKind::Symlink,
            ws::EntryKind::Other => workspace::EntryKind::Other,
        },
        size: e.size,
        modified_ms: e.modified_ms,
        sensitive: e.sensitive,
    }
}
