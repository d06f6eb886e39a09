//! BM25 statistics of the live documents of one searcher, so that a score depends on the
//! files as they are and on nothing else: not on documents an incremental pass deleted but
//! tantivy has not merged away yet, nor on how the documents fell into segments.
//!
//! tantivy's own statistics count deleted documents in `doc_freq`, `max_doc` and the stored
//! token totals. After an edit, a checkout or an undo, every score then differs from a fresh
//! index of the same files, and a statistic mixing live counts with deleted ones (a document
//! count of live files against a `doc_freq` of live and deleted ones) trips tantivy's
//! `doc_count >= doc_freq` assertion. Here every statistic counts live documents only:
//!
//! - documents: the live documents the query ranks among (the caller's count);
//! - `doc_freq`: the live documents holding the term (postings walked where a segment has
//!   deletes, the term dictionary's count elsewhere);
//! - tokens: the sum of the live documents' field norms. tantivy stores a segment's exact
//!   total, but after deletes (and in a merge of segments with deletes) it can only estimate
//!   it from the norms; summing the norms everywhere gives the same number for the same live
//!   documents however they were indexed. Per segment and field it is summed once and cached
//!   (a segment's documents never change; its deletes only grow).

use std::collections::HashMap;
use std::sync::Mutex;
use tantivy::index::SegmentId;
use tantivy::query::Bm25StatisticsProvider;
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocSet, Searcher, SegmentReader, Term};

/// Cached token totals at most; past it the cache starts over (segments come and go).
const MAX_CACHED: usize = 4_096;

/// Token totals per (segment, deleted documents, field): what [`LiveStatistics`] summed.
#[derive(Default)]
pub struct TokenTotals(Mutex<HashMap<(SegmentId, u32, Field), u64>>);

impl TokenTotals {
    fn of(&self, segment: &SegmentReader, field: Field) -> tantivy::Result<u64> {
        let key = (segment.segment_id(), segment.num_deleted_docs(), field);
        if let Some(total) = self.lock().get(&key) {
            return Ok(*total);
        }
        let total = match segment.fieldnorms_readers().get_field(field)? {
            Some(norms) => segment
                .doc_ids_alive()
                .map(|doc| u64::from(norms.fieldnorm(doc)))
                .sum(),
            // A field without norms is scored as if every document had the mean length.
            None => segment.inverted_index(field)?.total_num_tokens(),
        };
        let mut cache = self.lock();
        if cache.len() >= MAX_CACHED {
            cache.clear();
        }
        cache.insert(key, total);
        Ok(total)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(SegmentId, u32, Field), u64>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The statistics of one search: the searcher it runs on, how many live documents it ranks
/// among, and the shared cache of token totals.
pub struct LiveStatistics<'a> {
    pub searcher: &'a Searcher,
    pub documents: u64,
    pub totals: &'a TokenTotals,
}

impl Bm25StatisticsProvider for LiveStatistics<'_> {
    fn total_num_tokens(&self, field: Field) -> tantivy::Result<u64> {
        let mut total = 0;
        for segment in self.searcher.segment_readers() {
            total += self.totals.of(segment, field)?;
        }
        Ok(total)
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        Ok(self.documents.max(1))
    }

    fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
        let live = live_doc_freq(self.searcher, term)?;
        // Every document holding the term is among the documents ranked: a caller counting
        // fewer (a filter's term, scored by mistake) must not reach tantivy's assertion.
        Ok(live.min(self.documents.max(1)))
    }
}

/// The live documents holding `term`, over all segments.
pub fn live_doc_freq(searcher: &Searcher, term: &Term) -> tantivy::Result<u64> {
    let mut total = 0u64;
    for segment in searcher.segment_readers() {
        let inverted = segment.inverted_index(term.field())?;
        total += u64::from(match segment.alive_bitset() {
            None => inverted.doc_freq(term)?,
            Some(alive) => match inverted.read_postings(term, IndexRecordOption::Basic)? {
                Some(mut postings) => postings.count(alive),
                None => 0,
            },
        });
    }
    Ok(total)
}
