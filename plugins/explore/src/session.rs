//! The pack a call works on (ADR-038 §5.2, ADR-040 §5.5): reused when the call names it (or
//! pages it with a cursor), rebuilt with reason pack_expired when it outlived its TTL, built
//! fresh otherwise. A call with only a packId continues the request the pack was built for.

use crate::args::{ExploreArgs, Route};
use crate::envelope::Response;
use crate::key::PackKey;
use crate::smart_context::plugin::store::{self, EvidenceSettings, Pack, PackLookup};
use crate::{find, read};

/// The pack a call works on.
pub struct Session {
    pub key: PackKey,
    pub pack: Pack,
    /// The pack existed and is being reused: what it already showed is sent by reference.
    pub hit: bool,
    pub settings: EvidenceSettings,
    pub reasons: Vec<String>,
}

impl Session {
    /// Persists the pack after its items changed (snapshots, lazy previews, refreshes).
    pub fn save(&mut self) {
        match store::pack_put(&self.pack) {
            Ok(stored) => self.pack = stored,
            Err(err) => crate::log_warn(&format!("saving pack: {}", err.message)),
        }
    }
}

/// Opens the call's pack, or the response that refuses the call.
pub fn open(args: &ExploreArgs) -> Result<Session, Box<Response>> {
    let settings = store::settings();
    let explicit = args.query().is_some() || !args.paths().is_empty();
    let derived = if explicit {
        let route = args
            .route()
            .map_err(|m| Box::new(Response::invalid_args(m)))?;
        Some(PackKey::new(args, route))
    } else {
        None
    };
    let wants_reuse = args.pack_id.is_some() || args.cursor.is_some();
    let Some(id) = args
        .pack_id
        .clone()
        .or_else(|| derived.as_ref().map(PackKey::id))
    else {
        return Err(Box::new(Response::invalid_args(
            "give `query` to search, `paths` to read, or a `packId` to continue",
        )));
    };
    if !wants_reuse {
        let key = derived.expect("an id without packId comes from the request");
        return build(key, args, settings, Vec::new());
    }
    match store::pack_get(&id) {
        PackLookup::Found(pack) => {
            let key = stored_key(&pack, derived.as_ref())?;
            Ok(Session {
                key,
                pack,
                hit: true,
                settings,
                reasons: Vec::new(),
            })
        }
        PackLookup::Expired(pack) => {
            let key = stored_key(&pack, derived.as_ref())?;
            if args.cursor.is_some() {
                return Err(Box::new(Response::invalid_args(
                    "this pack expired, and its cursors with it; repeat the call without cursor",
                )));
            }
            build(key, args, settings, vec!["pack_expired".into()])
        }
        PackLookup::Missing => match derived {
            Some(key) if key.id() == id && args.cursor.is_none() => {
                // Pruned (or made by another server): the request says what to rebuild.
                build(key, args, settings, vec!["pack_expired".into()])
            }
            Some(key) if key.id() != id => Err(mismatch(&id)),
            _ => Err(Box::new(Response::invalid_args(format!(
                "no pack {id}: it expired or was never made here; repeat the query without packId and cursor"
            )))),
        },
    }
}

/// The request a stored pack answers; a call that also spells out its request must agree.
fn stored_key(pack: &Pack, derived: Option<&PackKey>) -> Result<PackKey, Box<Response>> {
    let key: PackKey = serde_json::from_str(&pack.options_json).map_err(|_| {
        Box::new(Response::invalid_args(format!(
            "pack {} was made by another version; repeat the query without packId",
            pack.pack_id
        )))
    })?;
    match derived {
        Some(d) if *d != key => Err(mismatch(&pack.pack_id)),
        _ => Ok(key),
    }
}

fn mismatch(id: &str) -> Box<Response> {
    Box::new(Response::invalid_args(format!(
        "packId {id} was made for another query, include, paths or intent; omit packId to start a pack for this request"
    )))
}

/// Finds or expands what the request names, and stores it as a new pack.
fn build(
    key: PackKey,
    args: &ExploreArgs,
    settings: EvidenceSettings,
    mut reasons: Vec<String>,
) -> Result<Session, Box<Response>> {
    let built = match key.route {
        Route::Find => find::collect(&key, args, &settings),
        Route::Read => read::expand(&key, args),
    };
    let (items, found_reasons) = built.map_err(|e| Box::new(Response::from_error(e)))?;
    reasons.extend(found_reasons);
    let pack = Pack {
        pack_id: key.id(),
        query: key.query.clone(),
        options_json: serde_json::to_string(&key).unwrap_or_default(),
        created_ms: 0,
        expires_ms: 0,
        reasons: reasons.clone(),
        salt: String::new(),
        items,
    };
    let pack = store::pack_put(&pack).map_err(|e| Box::new(Response::from_error(e.into())))?;
    Ok(Session {
        key,
        pack,
        hit: false,
        settings,
        reasons,
    })
}
