//! `status`: progress and cancellation of the running call.

use crate::runtime::bindings::HostState;
use crate::runtime::bindings::pillar::smart_context::plugin::status;

impl status::Host for HostState {
    fn status(&mut self) -> status::HostStatus {
        let Some(runtime) = self.runtime.clone() else {
            return status::HostStatus {
                root: String::new(),
                version: env!("CARGO_PKG_VERSION").into(),
                plugins: Vec::new(),
                store_path: String::new(),
                schema_version: 0,
                transactions: 0,
                pending_transactions: 0,
                last_transaction_ms: 0,
            };
        };
        let services = self
            .shared_services()
            .unwrap_or_else(|| runtime.services().clone());
        let report = runtime.status_of(&services);
        status::HostStatus {
            root: report.root,
            version: report.version,
            plugins: report
                .plugins
                .into_iter()
                .map(|p| status::PluginInfo {
                    name: p.name,
                    world: p.world,
                    sha256: p.sha256,
                    source: p.source,
                })
                .collect(),
            store_path: report.store.path,
            schema_version: report.store.schema_version,
            transactions: report.store.transactions,
            pending_transactions: report.store.pending_transactions,
            last_transaction_ms: report.store.last_transaction_ms,
        }
    }
}
