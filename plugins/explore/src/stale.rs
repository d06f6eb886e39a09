//! Staleness (ADR-038 §5.2 snapshots): each page item's file is compared with the snapshot
//! its pack took (mtime first, then the BLAKE3 hash), and an item whose file changed is
//! rebuilt: a search hit is looked up again in its file, a read target gets a new preview.

use crate::args::{ExploreArgs, Route};
use crate::find;
use crate::meta::Meta;
use crate::session::Session;
use crate::smart_context::plugin::workspace::{self, ReadOptions};
use std::collections::HashMap;

/// Compares each page item's file with its snapshot (mtime first, then the hash) and
/// refreshes the items whose file changed. Returns them, and whether the pack changed.
pub fn refresh_stale(
    session: &mut Session,
    page: &[usize],
    args: &ExploreArgs,
) -> (Vec<usize>, bool) {
    let mut live: HashMap<String, Option<(String, u64)>> = HashMap::new();
    let mut refreshed = Vec::new();
    let mut dirty = false;
    for &idx in page {
        let item = &session.pack.items[idx];
        let Some(snapshot) = item.content_hash.clone() else {
            continue;
        };
        let path = item.path.clone();
        let state = live
            .entry(path.clone())
            .or_insert_with(|| current(&path, item.updated_ms, &snapshot, args))
            .clone();
        match state {
            None => {}
            // Touched, not changed: remember the new mtime so it is not hashed again.
            Some((hash, mtime))
                if hash == snapshot && session.pack.items[idx].updated_ms != Some(mtime) =>
            {
                session.pack.items[idx].updated_ms = Some(mtime);
                dirty = true;
            }
            Some((hash, _)) if hash == snapshot => {}
            Some((hash, mtime)) => {
                refresh(session, idx, args);
                let item = &mut session.pack.items[idx];
                if !item.preview.is_empty() {
                    item.content_hash = Some(hash);
                    item.updated_ms = Some(mtime);
                }
                item.shown = String::new();
                refreshed.push(idx);
                dirty = true;
            }
        }
    }
    (refreshed, dirty)
}

/// The file's hash and mtime now, or None when its mtime still matches the snapshot (or it
/// cannot be read: then the snapshot stands). A deleted file has an empty hash.
fn current(
    path: &str,
    mtime: Option<u64>,
    snapshot: &str,
    args: &ExploreArgs,
) -> Option<(String, u64)> {
    let Ok(entry) = workspace::stat(path) else {
        return Some((String::new(), 0));
    };
    if Some(entry.modified_ms) == mtime {
        return None;
    }
    let options = ReadOptions {
        max_bytes: 1,
        allow_sensitive: args.allow_sensitive,
        allow_binary: true,
        allow_truncate: true,
    };
    match workspace::read(path, options) {
        Ok(file) => Some((file.hash, entry.modified_ms)),
        Err(_) => (!snapshot.is_empty()).then(|| (snapshot.to_string(), entry.modified_ms)),
    }
}

/// Rebuilds one changed item: a search hit is looked up again in its file, a read target
/// gets a new preview when shown.
fn refresh(session: &mut Session, idx: usize, args: &ExploreArgs) {
    let item = session.pack.items[idx].clone();
    let meta = Meta::of(&item);
    match session.key.route {
        Route::Find => match find::refind(&session.key.query, &item, args.max_item_chars()) {
            Some(hit) => {
                session.pack.items[idx] = find::item(hit, meta.group, item.rank, &item.role);
            }
            None => {
                let stale = &mut session.pack.items[idx];
                stale.preview =
                    "(this chunk changed and no longer matches the query; search again)".into();
            }
        },
        Route::Read => {
            session.pack.items[idx].preview = String::new();
            session.pack.items[idx].content_hash = None;
        }
    }
}
