//! Where stream records come from: DynamoDB Streams through the SDK
//! ([`super::SdkStreamSource`]) or a stream in memory (`memory::MemoryStream`, compiled for tests only) that
//! tests script. The coordinator and the shard readers are the same code for both.

use std::future::Future;

use crate::aws::error::EngineError;
use crate::model::stream::{Change, ViewType};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamStatus {
    Enabling,
    Enabled,
    Disabling,
    Disabled,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardInfo {
    pub shard_id: String,
    pub parent_shard_id: Option<String>,
    /// Set once the shard is closed: it takes no more records.
    pub ending_sequence_number: Option<String>,
}

impl ShardInfo {
    pub fn is_closed(&self) -> bool {
        self.ending_sequence_number.is_some()
    }
}

/// One DescribeStream page.
#[derive(Debug, Clone)]
pub struct ShardListing {
    pub shards: Vec<ShardInfo>,
    /// Ask again from after this shard for the next page.
    pub last_evaluated_shard_id: Option<String>,
    pub status: StreamStatus,
    pub view_type: Option<ViewType>,
}

/// GetShardIterator's `ShardIteratorType` with its sequence number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IteratorPosition {
    Latest,
    TrimHorizon,
    AfterSequenceNumber(String),
}

/// One GetRecords page.
#[derive(Debug, Clone, Default)]
pub struct RecordsPage {
    pub changes: Vec<Change>,
    /// Records the source could not read as changes (counted, not delivered).
    pub unreadable: u64,
    /// `None`: the shard is closed and this was its last page.
    pub next_iterator: Option<String>,
}

/// What the engine does about a failed call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamErrorKind {
    /// Throttled after the SDK's own retries: back off and retry the same call.
    Throttled,
    /// The iterator is older than 15 minutes: get a new one after the last record delivered.
    ExpiredIterator,
    /// The iterator points at records the stream no longer holds (or, on DynamoDB Local, at
    /// a shard that had none when it was taken): get a new one.
    TrimmedData,
    /// A network failure or a 5xx: retry the same call a few times.
    Transient,
    /// The shard (or the stream) does not exist: a shard past the 24 h retention is gone.
    NotFound,
    /// Anything else: the read fails with this error.
    Fatal,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamError {
    pub kind: StreamErrorKind,
    pub error: EngineError,
}

impl StreamError {
    pub fn new(kind: StreamErrorKind, error: EngineError) -> Self {
        StreamError { kind, error }
    }
}

pub trait StreamSource: Send + Sync + 'static {
    /// One DescribeStream page, starting after `exclusive_start_shard_id`.
    fn describe(
        &self,
        stream_arn: String,
        exclusive_start_shard_id: Option<String>,
    ) -> impl Future<Output = Result<ShardListing, StreamError>> + Send + 'static;

    fn shard_iterator(
        &self,
        stream_arn: String,
        shard_id: String,
        position: IteratorPosition,
    ) -> impl Future<Output = Result<String, StreamError>> + Send + 'static;

    fn records(
        &self,
        iterator: String,
        limit: i32,
    ) -> impl Future<Output = Result<RecordsPage, StreamError>> + Send + 'static;
}
