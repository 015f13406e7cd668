//! One shard, read from its first iterator to its end: GetRecords in a loop, each page
//! delivered in order before the next is asked for, failures recovered without losing or
//! repeating a record.
//!
//! - Throttled: wait (exponential backoff, capped) and retry with the same iterator.
//! - Transient (network, 5xx): the same, at most [`MAX_TRANSIENT_FAILURES`] times in a row.
//!   Iterators can be used again (DynamoDB returns the same records), and nothing from the
//!   failed call was delivered, so the retry neither loses nor repeats.
//! - Expired iterator (unused for 15 minutes: the consumer was slow): a new one after the last
//!   sequence number delivered.
//! - Trimmed data: the same, or from TRIM_HORIZON when the shard had not delivered a record.
//!
//! A shard started from LATEST that loses its iterator before its first record cannot ask for
//! LATEST again (what was written since would be skipped). It reads from TRIM_HORIZON instead,
//! skipping records older than the moment reading started (see
//! [`super::CREATION_TIME_GRANULARITY`]).

use std::sync::Arc;

use super::coordinator::Shared;
use super::lineage::ShardStart;
use super::retry::{pause, Backoff, MAX_TRANSIENT_FAILURES};
use super::source::{IteratorPosition, StreamErrorKind, StreamSource};
use super::{StreamCounters, StreamEvent, CREATION_TIME_GRANULARITY};
use crate::aws::error::EngineError;
use crate::model::stream::Change;

/// How a shard's task ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ShardEnd {
    /// Read to its end (closed), or no longer there to read.
    Closed,
    Cancelled,
}

enum Acquired {
    Iterator(String),
    Gone,
    Cancelled,
}

async fn acquire<S: StreamSource>(
    shared: &Shared<S>,
    shard_id: &str,
    mut position: IteratorPosition,
) -> Result<Acquired, EngineError> {
    let counters = &shared.counters;
    let mut backoff = Backoff::new();
    loop {
        StreamCounters::bump(&counters.get_shard_iterator);
        let call = shared.source.shard_iterator(
            shared.spec.stream_arn.clone(),
            shard_id.to_string(),
            position.clone(),
        );
        let result = tokio::select! {
            biased;
            _ = shared.stop.cancelled() => return Ok(Acquired::Cancelled),
            r = call => r,
        };
        let e = match result {
            Ok(iterator) => return Ok(Acquired::Iterator(iterator)),
            Err(e) => e,
        };
        match e.kind {
            StreamErrorKind::Throttled => StreamCounters::bump(&counters.throttles),
            StreamErrorKind::Transient if backoff.failures() + 1 < MAX_TRANSIENT_FAILURES => {
                StreamCounters::bump(&counters.retries)
            }
            // The last record delivered is past the retention: read on from the oldest kept.
            StreamErrorKind::TrimmedData
                if matches!(position, IteratorPosition::AfterSequenceNumber(_)) =>
            {
                StreamCounters::bump(&counters.trimmed_iterators);
                position = IteratorPosition::TrimHorizon;
                continue;
            }
            StreamErrorKind::NotFound => return Ok(Acquired::Gone),
            _ => return Err(e.error),
        }
        if !backoff.wait(&shared.stop).await {
            return Ok(Acquired::Cancelled);
        }
    }
}

pub(super) struct ShardReader<S> {
    shared: Arc<Shared<S>>,
    shard_id: Arc<str>,
    start: ShardStart,
    /// Records created before this (epoch ms) are skipped.
    cutoff_ms: Option<i64>,
    last_sequence: Option<String>,
    iterator: String,
}

impl<S: StreamSource> ShardReader<S> {
    /// Takes the shard's first iterator; `None` when the shard is gone or reading was
    /// cancelled.
    pub async fn open(
        shared: Arc<Shared<S>>,
        shard_id: &str,
        start: ShardStart,
        cutoff_ms: Option<i64>,
    ) -> Result<Option<Self>, EngineError> {
        let position = match start {
            ShardStart::Latest => IteratorPosition::Latest,
            ShardStart::TrimHorizon => IteratorPosition::TrimHorizon,
        };
        Ok(match acquire(&shared, shard_id, position).await? {
            Acquired::Iterator(iterator) => Some(ShardReader {
                shared,
                shard_id: shard_id.into(),
                start,
                cutoff_ms,
                last_sequence: None,
                iterator,
            }),
            Acquired::Gone | Acquired::Cancelled => None,
        })
    }

    /// A new iterator after the last record delivered (see the module notes).
    async fn reacquire(&mut self) -> Result<Acquired, EngineError> {
        let position = match &self.last_sequence {
            Some(sequence) => IteratorPosition::AfterSequenceNumber(sequence.clone()),
            None => {
                if self.start == ShardStart::Latest {
                    let started = self.shared.spec.started_at_ms;
                    self.cutoff_ms = Some(self.cutoff_ms.map_or(started, |c| c.max(started)));
                }
                IteratorPosition::TrimHorizon
            }
        };
        acquire(&self.shared, &self.shard_id, position).await
    }

    /// Counts, filters and sends one page; `false` when reading was cancelled meanwhile.
    async fn deliver(&mut self, mut changes: Vec<Change>, unreadable: u64) -> bool {
        let counters = &self.shared.counters;
        counters
            .records
            .fetch_add(changes.len() as u64, std::sync::atomic::Ordering::Relaxed);
        counters
            .unreadable
            .fetch_add(unreadable, std::sync::atomic::Ordering::Relaxed);
        if let Some(last) = changes.last() {
            self.last_sequence = Some(last.sequence_number.clone());
        }
        if let Some(cutoff) = self.cutoff_ms {
            let slack = CREATION_TIME_GRANULARITY.as_millis() as i64;
            let before = changes.len();
            changes.retain(|c| c.created_at_ms.is_none_or(|t| t + slack > cutoff));
            counters.skipped.fetch_add(
                (before - changes.len()) as u64,
                std::sync::atomic::Ordering::Relaxed,
            );
        }
        if changes.is_empty() {
            return true;
        }
        let event = StreamEvent::Changes {
            shard_id: self.shard_id.clone(),
            changes,
        };
        tokio::select! {
            biased;
            _ = self.shared.stop.cancelled() => false,
            sent = self.shared.tx.send(event) => sent.is_ok(),
        }
    }

    pub async fn run(mut self) -> Result<ShardEnd, EngineError> {
        let shared = self.shared.clone();
        let counters = &shared.counters;
        let mut backoff = Backoff::new();
        loop {
            StreamCounters::bump(&counters.get_records);
            let call = shared
                .source
                .records(self.iterator.clone(), shared.spec.records_per_call);
            let result = tokio::select! {
                biased;
                _ = shared.stop.cancelled() => return Ok(ShardEnd::Cancelled),
                r = call => r,
            };
            let e = match result {
                Ok(page) => {
                    backoff.reset();
                    let received = page.changes.len() as u64 + page.unreadable;
                    if !self.deliver(page.changes, page.unreadable).await {
                        return Ok(ShardEnd::Cancelled);
                    }
                    match page.next_iterator {
                        None => return Ok(ShardEnd::Closed),
                        Some(next) => self.iterator = next,
                    }
                    if received == 0 && !pause(shared.spec.idle_poll, &shared.stop).await {
                        return Ok(ShardEnd::Cancelled);
                    }
                    continue;
                }
                Err(e) => e,
            };
            match e.kind {
                StreamErrorKind::Throttled => StreamCounters::bump(&counters.throttles),
                StreamErrorKind::Transient if backoff.failures() + 1 < MAX_TRANSIENT_FAILURES => {
                    StreamCounters::bump(&counters.retries)
                }
                StreamErrorKind::ExpiredIterator
                | StreamErrorKind::TrimmedData
                | StreamErrorKind::NotFound => {
                    let counter = match e.kind {
                        StreamErrorKind::ExpiredIterator => Some(&counters.expired_iterators),
                        StreamErrorKind::TrimmedData => Some(&counters.trimmed_iterators),
                        _ => None,
                    };
                    if let Some(counter) = counter {
                        StreamCounters::bump(counter);
                    }
                    // A new iterator at once; if that one fails too, not in a tight loop.
                    if backoff.failures() == 0 {
                        backoff.count();
                    } else if !backoff.wait(&shared.stop).await {
                        return Ok(ShardEnd::Cancelled);
                    }
                    match self.reacquire().await? {
                        Acquired::Iterator(iterator) => self.iterator = iterator,
                        Acquired::Gone => return Ok(ShardEnd::Closed),
                        Acquired::Cancelled => return Ok(ShardEnd::Cancelled),
                    }
                    continue;
                }
                _ => return Err(e.error),
            }
            if !backoff.wait(&shared.stop).await {
                return Ok(ShardEnd::Cancelled);
            }
        }
    }
}
