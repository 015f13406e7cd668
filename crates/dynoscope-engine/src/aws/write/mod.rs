//! The only code that writes to a table the user opened. A [`Writer`] exists only when the
//! user enabled writes (`--allow-writes`, or `allow_writes` for the profile or endpoint in the
//! config): the explorer holds an `Option` of one, and without it refuses every write effect.
//! The read [`super::Engine`] cannot write at all: its client refuses every write operation
//! before signing ([`read_only::ReadOnly`]).
//!
//! Writes sit behind their own small trait, apart from [`super::Backend`], so that reading
//! needs no writer and the in-memory `MemoryWriter` (compiled for tests only) can run the conflict flows of the
//! explorer under paused time with the same conditions DynamoDB evaluates.

pub mod audit;
pub mod guard;
#[cfg(any(test, feature = "test-engines"))]
mod memory;
pub mod read_only;
mod sdk;

use std::future::Future;
use std::time::Duration;

pub use audit::AuditLog;
pub use guard::{WriteAdmission, WriteGuard, WriteTicket};
#[cfg(any(test, feature = "test-engines"))]
pub use memory::MemoryWriter;
pub use sdk::Writer;

use super::attempts::AttemptStats;
use super::error::EngineError;
use crate::model::capacity::Consumed;
use crate::model::value::Item;
use crate::model::write::WritePlan;

/// A write that went through.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteDone {
    /// `PutItem`, `UpdateItem`, `DeleteItem` or `TransactWriteItems`.
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

pub trait WriteBackend: Clone + Send + Sync + 'static {
    /// Sends `plan` (one op, or a transaction of them); every op carries its condition.
    fn write(&self, plan: WritePlan) -> impl Future<Output = WriteResult> + Send;
}
