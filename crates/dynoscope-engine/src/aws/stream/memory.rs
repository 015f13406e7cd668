//! A stream in memory that answers like DynamoDB Streams (paged DescribeStream, iterators that
//! expire after 15 minutes of paused time, GetRecords pages of at most `limit` records, no next
//! iterator at the end of a closed shard), with shards split, closed and disabled by the test
//! while it runs, and scripted failures. Tests drive the real coordinator and shard readers
//! against it under paused time; the integration tests against DynamoDB Local stay.
//!
//! Compiled for tests only: `cfg(test)` in the crate, and the `test-engines` feature that
//! the test suite turns on for `tests/` (a release build has none of it).

use std::future::{ready, Future};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::time::Instant;

use super::source::{
    IteratorPosition, RecordsPage, ShardInfo, ShardListing, StreamError, StreamErrorKind,
    StreamSource, StreamStatus,
};
use crate::aws::error::EngineError;
use crate::model::stream::{Change, ViewType};

/// How long DynamoDB keeps an unused shard iterator.
pub const ITERATOR_LIFETIME: Duration = Duration::from_secs(15 * 60);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    DescribeStream,
    GetShardIterator,
    GetRecords,
}

/// One call as the script sees it: the operation, how many of that operation came before, and
/// the shard (for GetShardIterator and GetRecords).
#[derive(Debug, Clone)]
pub struct Call {
    pub operation: Operation,
    pub n: u64,
    pub shard_id: Option<String>,
}

type Script = dyn Fn(&Call) -> Option<StreamErrorKind> + Send + Sync;
type Generator = dyn Fn(u64) -> Change + Send + Sync;

enum Records {
    Stored(Vec<Change>),
    /// `len` records made on demand: a long stream that costs the test no memory.
    Generated {
        len: u64,
        make: Arc<Generator>,
    },
}

struct Shard {
    id: String,
    parent: Option<String>,
    records: Records,
    closed: bool,
    /// Sequence numbers are `first_sequence + position`, 21 digits like DynamoDB Local's.
    first_sequence: u64,
}

impl Shard {
    fn len(&self) -> u64 {
        match &self.records {
            Records::Stored(v) => v.len() as u64,
            Records::Generated { len, .. } => *len,
        }
    }

    fn record(&self, position: u64) -> Change {
        let mut change = match &self.records {
            Records::Stored(v) => v[position as usize].clone(),
            Records::Generated { make, .. } => make(position),
        };
        change.sequence_number = format!("{:021}", self.first_sequence + position);
        change
    }
}

struct State {
    shards: Vec<Shard>,
    status: StreamStatus,
    next_sequence: u64,
    calls: [u64; 3],
}

pub struct MemoryStream {
    state: Mutex<State>,
    script: Box<Script>,
    view_type: ViewType,
    /// Shards per DescribeStream page.
    page_shards: usize,
    epoch: Instant,
}

/// Every shard's sequence numbers get a range of their own this wide.
const SEQUENCE_SPACING: u64 = 1_000_000_000;

impl Default for MemoryStream {
    fn default() -> Self {
        MemoryStream::new()
    }
}

impl MemoryStream {
    pub fn new() -> Self {
        MemoryStream {
            state: Mutex::new(State {
                shards: Vec::new(),
                status: StreamStatus::Enabled,
                next_sequence: SEQUENCE_SPACING,
                calls: [0; 3],
            }),
            script: Box::new(|_| None),
            view_type: ViewType::NewAndOldImages,
            page_shards: 2,
            epoch: Instant::now(),
        }
    }

    /// Fails the calls the script names, with the kind it returns.
    pub fn with_script(
        mut self,
        script: impl Fn(&Call) -> Option<StreamErrorKind> + Send + Sync + 'static,
    ) -> Self {
        self.script = Box::new(script);
        self
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn add_shard(&self, id: &str, parent: Option<&str>, records: Records, closed: bool) {
        let mut s = self.lock();
        let first_sequence = s.next_sequence;
        s.next_sequence += SEQUENCE_SPACING;
        s.shards.push(Shard {
            id: id.to_string(),
            parent: parent.map(String::from),
            records,
            closed,
            first_sequence,
        });
    }

    /// An open shard.
    pub fn open_shard(&self, id: &str, parent: Option<&str>) {
        self.add_shard(id, parent, Records::Stored(Vec::new()), false);
    }

    /// A closed shard of `len` records made by `make(position)` on demand.
    pub fn generated_shard(
        &self,
        id: &str,
        parent: Option<&str>,
        len: u64,
        make: impl Fn(u64) -> Change + Send + Sync + 'static,
    ) {
        let records = Records::Generated {
            len,
            make: Arc::new(make),
        };
        self.add_shard(id, parent, records, true);
    }

    /// Appends to an open shard; returns the record's sequence number.
    ///
    /// # Panics
    ///
    /// If the shard is unknown, closed or generated.
    pub fn append(&self, shard: &str, change: Change) -> String {
        let mut s = self.lock();
        let shard = s
            .shards
            .iter_mut()
            .find(|sh| sh.id == shard)
            .expect("known shard");
        assert!(!shard.closed, "shard {} is closed", shard.id);
        let Records::Stored(v) = &mut shard.records else {
            panic!("shard {} is generated", shard.id)
        };
        v.push(change);
        format!("{:021}", shard.first_sequence + v.len() as u64 - 1)
    }

    /// Closes a shard: it takes no more records, and once read it has no next iterator.
    pub fn close(&self, shard: &str) {
        if let Some(sh) = self.lock().shards.iter_mut().find(|sh| sh.id == shard) {
            sh.closed = true;
        }
    }

    /// Closes `parent` and opens `children` that carry on for its keys.
    pub fn split(&self, parent: &str, children: &[&str]) {
        self.close(parent);
        for child in children {
            self.open_shard(child, Some(parent));
        }
    }

    /// Closes every shard and marks the stream disabled.
    pub fn disable(&self) {
        let mut s = self.lock();
        for sh in &mut s.shards {
            sh.closed = true;
        }
        s.status = StreamStatus::Disabled;
    }

    /// Calls made so far, per operation.
    pub fn calls(&self, operation: Operation) -> u64 {
        self.lock().calls[operation as usize]
    }

    fn scripted(&self, operation: Operation, shard_id: Option<&str>) -> Option<StreamError> {
        let n = {
            let mut s = self.lock();
            let n = s.calls[operation as usize];
            s.calls[operation as usize] += 1;
            n
        };
        let call = Call {
            operation,
            n,
            shard_id: shard_id.map(String::from),
        };
        (self.script)(&call).map(|kind| {
            StreamError::new(
                kind,
                EngineError::service(format!("scripted {kind:?} of {operation:?} call {n}")),
            )
        })
    }

    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    fn iterator(&self, shard: usize, position: u64) -> String {
        format!("{shard}/{position}/{}", self.now_ms())
    }

    fn describe_now(&self, start: Option<String>) -> Result<ShardListing, StreamError> {
        if let Some(e) = self.scripted(Operation::DescribeStream, None) {
            return Err(e);
        }
        let s = self.lock();
        let from = match &start {
            None => 0,
            Some(id) => s
                .shards
                .iter()
                .position(|sh| sh.id == *id)
                .map_or(0, |p| p + 1),
        };
        let to = (from + self.page_shards).min(s.shards.len());
        let shards = s.shards[from..to]
            .iter()
            .map(|sh| ShardInfo {
                shard_id: sh.id.clone(),
                parent_shard_id: sh.parent.clone(),
                ending_sequence_number: sh
                    .closed
                    .then(|| format!("{:021}", sh.first_sequence + sh.len())),
            })
            .collect();
        Ok(ShardListing {
            shards,
            last_evaluated_shard_id: (to < s.shards.len()).then(|| s.shards[to - 1].id.clone()),
            status: s.status,
            view_type: Some(self.view_type),
        })
    }

    fn iterator_now(
        &self,
        shard_id: &str,
        position: IteratorPosition,
    ) -> Result<String, StreamError> {
        if let Some(e) = self.scripted(Operation::GetShardIterator, Some(shard_id)) {
            return Err(e);
        }
        let s = self.lock();
        let Some(index) = s.shards.iter().position(|sh| sh.id == shard_id) else {
            return Err(StreamError::new(
                StreamErrorKind::NotFound,
                EngineError::service(format!("no shard '{shard_id}'")),
            ));
        };
        let shard = &s.shards[index];
        let at = match position {
            IteratorPosition::TrimHorizon => 0,
            IteratorPosition::Latest => shard.len(),
            IteratorPosition::AfterSequenceNumber(seq) => {
                let n: u64 = seq.parse().map_err(|_| {
                    StreamError::new(
                        StreamErrorKind::Fatal,
                        EngineError::bad_input(format!("bad sequence number '{seq}'")),
                    )
                })?;
                (n + 1)
                    .saturating_sub(shard.first_sequence)
                    .min(shard.len())
            }
        };
        drop(s);
        Ok(self.iterator(index, at))
    }

    fn records_now(&self, iterator: &str, limit: i32) -> Result<RecordsPage, StreamError> {
        let fatal = |why: &str| {
            StreamError::new(
                StreamErrorKind::Fatal,
                EngineError::bad_input(format!("invalid iterator '{iterator}': {why}")),
            )
        };
        let parts: Vec<u64> = iterator
            .split('/')
            .map(|p| p.parse().map_err(|_| fatal("not a number")))
            .collect::<Result<_, _>>()?;
        let [index, position, issued] = parts[..] else {
            return Err(fatal("not three parts"));
        };
        let shard_id = self
            .lock()
            .shards
            .get(index as usize)
            .map(|sh| sh.id.clone());
        let shard_id = shard_id.ok_or_else(|| fatal("no such shard"))?;
        if let Some(e) = self.scripted(Operation::GetRecords, Some(&shard_id)) {
            return Err(e);
        }
        if self.now_ms().saturating_sub(issued) > ITERATOR_LIFETIME.as_millis() as u64 {
            return Err(StreamError::new(
                StreamErrorKind::ExpiredIterator,
                EngineError::service("Iterator expired"),
            ));
        }
        let s = self.lock();
        let shard = &s.shards[index as usize];
        let end = (position + limit.max(1) as u64).min(shard.len());
        let changes = (position..end).map(|p| shard.record(p)).collect();
        let at_end = end == shard.len() && shard.closed;
        drop(s);
        Ok(RecordsPage {
            changes,
            unreadable: 0,
            next_iterator: (!at_end).then(|| self.iterator(index as usize, end)),
        })
    }
}

impl StreamSource for MemoryStream {
    fn describe(
        &self,
        _stream_arn: String,
        exclusive_start_shard_id: Option<String>,
    ) -> impl Future<Output = Result<ShardListing, StreamError>> + Send + 'static {
        ready(self.describe_now(exclusive_start_shard_id))
    }

    fn shard_iterator(
        &self,
        _stream_arn: String,
        shard_id: String,
        position: IteratorPosition,
    ) -> impl Future<Output = Result<String, StreamError>> + Send + 'static {
        ready(self.iterator_now(&shard_id, position))
    }

    fn records(
        &self,
        iterator: String,
        limit: i32,
    ) -> impl Future<Output = Result<RecordsPage, StreamError>> + Send + 'static {
        ready(self.records_now(&iterator, limit))
    }
}
