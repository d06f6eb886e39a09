//! `store`: the evidence packs explore keeps between calls.

use super::to_wit;
use crate::error::{HostError, codes};
use crate::runtime::bindings::HostState;
use crate::runtime::bindings::pillar::smart_context::plugin::{store, types};
use crate::store::packs::{self, Lookup};

impl store::Host for HostState {
    fn settings(&mut self) -> store::EvidenceSettings {
        let s = match self.services() {
            Ok(services) => services.packs.settings().clone(),
            Err(_) => packs::EvidenceSettings::default(),
        };
        store::EvidenceSettings {
            cache_size: s.cache_size,
            ttl_ms: s.ttl_ms,
            attach_doc_sections: s.attach_doc_sections,
            attach_doc_sections_max: s.attach_doc_sections_max,
            doc_snippet_max_chars: s.doc_snippet_max_chars,
            doc_skeleton_max_chars: s.doc_skeleton_max_chars,
        }
    }

    fn pack_get(&mut self, pack_id: String) -> store::PackLookup {
        let Ok(services) = self.services() else {
            return store::PackLookup::Missing;
        };
        let lookup = services.packs.get(&pack_id);
        match lookup {
            Ok(Lookup::Missing) => store::PackLookup::Missing,
            Ok(Lookup::Expired(pack)) => store::PackLookup::Expired(pack.into()),
            Ok(Lookup::Found(pack)) => store::PackLookup::Found(pack.into()),
            Err(err) => {
                // A pack is a cache: an unreadable one is rebuilt, not an error for the agent.
                tracing::warn!("reading evidence pack {pack_id}: {err:#}");
                store::PackLookup::Missing
            }
        }
    }

    fn pack_put(&mut self, pack: store::Pack) -> Result<store::Pack, types::Error> {
        let services = self.services()?;
        let stored = services
            .packs
            .put(pack.into())
            .map_err(|e| to_wit(store_error(e)))?;
        Ok(stored.into())
    }

    fn pack_mark_shown(
        &mut self,
        pack_id: String,
        role: String,
        shown: Vec<(u32, String)>,
    ) -> Result<(), types::Error> {
        let services = self.services()?;
        services
            .packs
            .mark_shown(&pack_id, &role, &shown)
            .map_err(|e| to_wit(store_error(e)))
    }
}

fn store_error(err: anyhow::Error) -> HostError {
    HostError::new(codes::STORE_ERROR, format!("evidence pack store: {err:#}"))
        .suggest("retry; the pack is rebuilt when it cannot be stored")
}
