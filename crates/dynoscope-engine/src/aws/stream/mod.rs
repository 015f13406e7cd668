//! Reading a table's DynamoDB stream: the words the engine and its callers share. No SDK types
//! here; the SDK is behind [`source::StreamSource`], and tests script an in-memory stream
//! (`memory::MemoryStream`, compiled for tests only) through the same coordinator and shard readers.
//!
//! A stream is a set of shards. Each holds the changes of some keys in order; a shard is
//! closed after a few hours and split into children that carry on for its keys, and a
//! disabled stream's shards all close. So every open shard is read in parallel (one task
//! each), a child only once its parent has been read to its end (the per-key order holds),
//! new shards are found by polling DescribeStream, and a closed shard's task ends.
//! Iterators that expire are re-acquired after the last sequence number delivered, and
//! throttled or failed GetRecords are retried with the same iterator after a backoff, so
//! nothing is lost or delivered twice. Changes reach the caller over one bounded channel:
//! a slow consumer parks the shard readers, and memory stays bounded.
//!
//! What DynamoDB Local 3.3.1 does, measured (see tests/integration/tail.rs):
//! - one shard per stream, never split (20,000 writes to one table: still one shard), so
//!   lineage is tested with the in-memory stream only;
//! - sequence numbers are 21 zero-padded digits counted across the whole instance, not per
//!   stream, and an iterator taken on a shard with no records yet (LATEST or TRIM_HORIZON)
//!   fails with TrimmedDataAccessException once another table's writes have moved that
//!   counter on before this table's first write: the engine re-acquires from TRIM_HORIZON
//!   (everything in such a shard came after the iterator was taken, so nothing is repeated);
//! - `ApproximateCreationDateTime` is rounded down to the minute (real DynamoDB: the second),
//!   so `--since` keeps records up to a minute older than asked (see
//!   [`CREATION_TIME_GRANULARITY`]);
//! - iterators can be used more than once (the same records come back), and expire after 15
//!   minutes unused (still valid at 14 minutes, `ExpiredIteratorException` at 15); GetRecords
//!   returns at most 1,000 records; a garbage iterator is a `ValidationException`; a disabled
//!   stream's shard gets an ending sequence number and, once read, no next iterator;
//! - records carry no `userIdentity` (DynamoDB Local does not run TTL deletes).

pub mod client;
pub mod convert;
mod coordinator;
pub mod describe;
mod lineage;
#[cfg(any(test, feature = "test-engines"))]
pub mod memory;
mod retry;
pub(crate) mod sdk;
mod shard;
pub mod source;
pub mod wire;

#[cfg(test)]
mod engine_tests;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

pub use coordinator::start_stream;
pub use sdk::SdkStreamSource;
// The events and starts are plain data the explorer reads too: they live in the domain crate.
pub use crate::model::engine::stream::{StreamEvent, StreamOutcome, StreamStart};

use super::error::EngineError;
use crate::model::stream::ViewType;

/// How long DynamoDB keeps stream records.
pub const RETENTION: Duration = Duration::from_secs(24 * 3600);
/// How often the shard list is read again for new shards (and at once when a shard closes).
/// DescribeStream is limited to 10 calls a second per account; shards appear every few hours.
pub const DESCRIBE_EVERY: Duration = Duration::from_secs(10);
/// Wait after a GetRecords that returned nothing. DynamoDB allows 5 GetRecords a second per
/// shard, shared by every reader of the stream (AWS advises at most two readers).
pub const IDLE_POLL: Duration = Duration::from_millis(500);
/// GetRecords' largest page.
pub const RECORDS_PER_CALL: i32 = 1000;
/// The coarsest rounding of `ApproximateCreationDateTime` seen: DynamoDB Local rounds down to
/// the minute. A record is older than a cut-off only when its time plus this is.
pub const CREATION_TIME_GRANULARITY: Duration = Duration::from_secs(60);

#[derive(Debug, Clone)]
pub struct StreamSpec {
    pub stream_arn: String,
    /// The stream's view type, for records that do not say.
    pub view_type: Option<ViewType>,
    pub start: StreamStart,
    /// The wall clock when reading started (epoch milliseconds); see [`shard`]'s fallback for
    /// a LATEST shard that loses its iterator before its first record.
    pub started_at_ms: i64,
    pub describe_every: Duration,
    pub idle_poll: Duration,
    pub records_per_call: i32,
}

impl StreamSpec {
    pub fn new(stream_arn: impl Into<String>, start: StreamStart, started_at_ms: i64) -> Self {
        StreamSpec {
            stream_arn: stream_arn.into(),
            view_type: None,
            start,
            started_at_ms,
            describe_every: DESCRIBE_EVERY,
            idle_poll: IDLE_POLL,
            records_per_call: RECORDS_PER_CALL,
        }
    }
}

/// Running totals of a stream read, shared with the shard tasks and the SDK's interceptor.
#[derive(Debug, Default)]
pub struct StreamCounters {
    pub describe_stream: AtomicU64,
    pub get_shard_iterator: AtomicU64,
    pub get_records: AtomicU64,
    /// Records GetRecords returned.
    pub records: AtomicU64,
    /// Records before a `Since` cut-off, not delivered.
    pub skipped: AtomicU64,
    /// Records the converter could not read (no event name or sequence number).
    pub unreadable: AtomicU64,
    /// HTTP attempts, including the SDK's retries (SDK source only).
    pub attempts: AtomicU64,
    /// Attempts the service throttled, including those the SDK retried (SDK source only).
    pub throttled_attempts: AtomicU64,
    /// Calls that failed throttled after the SDK's retries, and were retried after a backoff.
    pub throttles: AtomicU64,
    pub expired_iterators: AtomicU64,
    pub trimmed_iterators: AtomicU64,
    /// Calls that failed for a transient reason (network, 5xx) and were retried.
    pub retries: AtomicU64,
    pub shards_opened: AtomicU64,
    pub shards_closed: AtomicU64,
}

/// A snapshot of [`StreamCounters`], as `--stats` prints it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct StreamStats {
    pub describe_stream: u64,
    pub get_shard_iterator: u64,
    pub get_records: u64,
    pub records: u64,
    pub skipped: u64,
    pub unreadable: u64,
    pub attempts: u64,
    pub throttled_attempts: u64,
    pub throttles: u64,
    pub expired_iterators: u64,
    pub trimmed_iterators: u64,
    pub retries: u64,
    pub shards_opened: u64,
    pub shards_closed: u64,
}

impl StreamCounters {
    pub fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub fn snapshot(&self) -> StreamStats {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        StreamStats {
            describe_stream: get(&self.describe_stream),
            get_shard_iterator: get(&self.get_shard_iterator),
            get_records: get(&self.get_records),
            records: get(&self.records),
            skipped: get(&self.skipped),
            unreadable: get(&self.unreadable),
            attempts: get(&self.attempts),
            throttled_attempts: get(&self.throttled_attempts),
            throttles: get(&self.throttles),
            expired_iterators: get(&self.expired_iterators),
            trimmed_iterators: get(&self.trimmed_iterators),
            retries: get(&self.retries),
            shards_opened: get(&self.shards_opened),
            shards_closed: get(&self.shards_closed),
        }
    }
}

/// A running stream read. Dropping the handle does not stop it; `cancel` does.
pub struct StreamHandle {
    cancel: CancellationToken,
    task: JoinHandle<()>,
    counters: Arc<StreamCounters>,
}

impl StreamHandle {
    /// A read that fails at once with `error`: its one event is `Failed` (a stream a backend
    /// does not know, as a real one would answer).
    pub fn failed(error: EngineError, tx: mpsc::Sender<StreamEvent>) -> StreamHandle {
        StreamHandle {
            cancel: CancellationToken::new(),
            task: tokio::spawn(async move {
                let _ = tx.send(StreamEvent::Failed { error }).await;
            }),
            counters: Arc::default(),
        }
    }

    /// A read run by `task` outside the shard engine (an incremental export's recorded
    /// changes), stopped by `cancel`.
    pub(crate) fn from_task(cancel: CancellationToken, task: JoinHandle<()>) -> StreamHandle {
        StreamHandle {
            cancel,
            task,
            counters: Arc::default(),
        }
    }

    pub fn cancel(&self) {
        self.cancel.cancel();
    }

    pub fn cancel_token(&self) -> CancellationToken {
        self.cancel.clone()
    }

    pub fn counters(&self) -> &Arc<StreamCounters> {
        &self.counters
    }

    pub fn is_finished(&self) -> bool {
        self.task.is_finished()
    }

    /// Waits until every shard task has stopped and the final event was sent.
    pub async fn join(self) {
        let _ = self.task.await;
    }
}
