//! What a conditional write sends back: done, a conflict with the item as stored now, or a
//! failure. The engine's writers (`dynoscope_engine::aws::write`) send them.

use std::time::Duration;

use super::attempts::AttemptStats;
use super::error::EngineError;
use crate::item::value::Item;
use crate::traffic::capacity::Consumed;

/// A write that went through.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteDone {
    /// `PutItem`, `UpdateItem`, `DeleteItem`, `PutItem+DeleteItem` (a move, sent in turn) or
    /// `TransactWriteItems`.
    pub operation: &'static str,
    /// Write capacity, table and indexes (`ReturnConsumedCapacity=INDEXES`).
    pub consumed: Consumed,
    pub latency: Duration,
    pub attempts: AttemptStats,
    pub items: usize,
    /// The request body as it went on the wire (its last attempt's), for the request log.
    pub sent: Option<std::sync::Arc<str>>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum WriteFailure {
    /// The condition of op `index` did not hold: its item changed since it was loaded.
    /// `current` is the item as stored now (read strongly consistently), `None` if gone.
    /// Nothing of the plan was written.
    Conflict {
        index: usize,
        current: Option<Item>,
        operation: &'static str,
        latency: Duration,
        attempts: AttemptStats,
        sent: Option<std::sync::Arc<str>>,
    },
    /// The write failed (after the SDK's retries, or before anything was sent): `attempts`
    /// are what it cost, its throttles and their reasons counted like a read's.
    Failed {
        error: EngineError,
        attempts: AttemptStats,
    },
}

impl WriteFailure {
    /// A write refused before any attempt was made.
    pub fn refused(error: EngineError) -> Self {
        WriteFailure::Failed {
            error,
            attempts: AttemptStats::default(),
        }
    }
}

pub type WriteResult = Result<WriteDone, WriteFailure>;
