//! The `memory` interface: the session memory's three layers, notes and forgetting, mapped
//! from WIT records to [`crate::memory::Memory`].

use super::bindings::HostState;
use super::bindings::pillar::smart_context::plugin::{memory, types};
use super::host_functions::to_wit;
use crate::memory::{self as mem, SearchFilter};
use crate::store::memory::ForgetFilter;
use crate::store::now_ms;

impl memory::Host for HostState {
    fn search(
        &mut self,
        query: String,
        options: memory::SearchOptions,
    ) -> Result<memory::SearchResult, types::Error> {
        let filter = SearchFilter {
            kinds: options.kinds,
            session_id: options.session_id,
            since_ms: options.since_ms,
        };
        let found = self
            .services()?
            .memory
            .search(
                &query,
                options.top_k.clamp(1, 100),
                options.min_score,
                &filter,
            )
            .map_err(to_wit)?;
        Ok(memory::SearchResult {
            total_matches: found.total_matches,
            items: found
                .items
                .into_iter()
                .map(|i| memory::IndexItem {
                    id: i.id,
                    summary: i.summary,
                    score: i.score,
                    kind: i.kind,
                    timestamp_ms: i.timestamp_ms,
                    session_id: i.session_id,
                })
                .collect(),
        })
    }

    fn timeline(
        &mut self,
        ids: Vec<String>,
        window_size: u32,
    ) -> Result<Vec<memory::TimelineItem>, types::Error> {
        let items = self
            .services()?
            .memory
            .timeline(&ids, window_size)
            .map_err(to_wit)?;
        Ok(items
            .into_iter()
            .map(|t| memory::TimelineItem {
                id: t.id,
                timestamp_ms: t.timestamp_ms,
                kind: t.kind,
                preview: t.preview,
                is_target: t.is_target,
                session_id: t.session_id,
                tool: t.tool,
            })
            .collect())
    }

    fn details(&mut self, ids: Vec<String>) -> Result<Vec<memory::Detail>, types::Error> {
        let details = self.services()?.memory.details(&ids).map_err(to_wit)?;
        Ok(details
            .into_iter()
            .map(|d| memory::Detail {
                id: d.id,
                content: d.content,
                kind: d.kind,
                timestamp_ms: d.timestamp_ms,
                session_id: d.session_id,
                token_count: d.token_count,
                has_code: d.has_code,
                files: d.files,
                tools: d.tools,
                tags: d.tags,
                transaction_id: d.transaction_id,
                parent_id: d.parent_id,
                child_ids: d.child_ids,
                related_ids: d.related_ids,
            })
            .collect())
    }

    fn remember(&mut self, note: memory::Note) -> Result<String, types::Error> {
        let note = mem::Note {
            content: note.content,
            files: note.files,
            tags: note.tags,
        };
        self.services()?
            .memory
            .remember(&note, None, "agent")
            .map_err(to_wit)
    }

    fn forget(&mut self, request: memory::ForgetRequest) -> Result<u64, types::Error> {
        let mut seqs = Vec::new();
        for id in &request.ids {
            seqs.push(mem::parse_id(id).ok_or_else(|| {
                to_wit(
                    crate::error::HostError::new(
                        crate::error::codes::INVALID_ARGS,
                        format!("{id:?} is not a memory id"),
                    )
                    .suggest("memory ids look like mem_12"),
                )
            })?);
        }
        let filter = ForgetFilter {
            seqs,
            session_id: request.session_id,
            before_ms: request
                .older_than_ms
                .map(|age| now_ms().saturating_sub(age)),
            all: request.all,
        };
        self.services()?.memory.forget(&filter).map_err(to_wit)
    }

    fn totals(&mut self) -> Result<memory::MemoryTotals, types::Error> {
        let t = self.services()?.memory.totals().map_err(to_wit)?;
        Ok(memory::MemoryTotals {
            enabled: t.enabled,
            events: t.events,
            sessions: t.sessions,
            oldest_ms: t.oldest_ms,
            newest_ms: t.newest_ms,
            session_id: t.session_id,
        })
    }
}
