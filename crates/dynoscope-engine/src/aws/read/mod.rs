//! Streaming Query and (parallel) Scan. The words the engine and its callers share (specs,
//! pages, events) are plain data in the domain crate (`model::engine::read`), re-exported here;
//! the SDK is behind [`source::PageSource`].
//!
//! A read runs as one task per segment (a Query is one segment, or one per write shard), each
//! paginating with `LastEvaluatedKey` and sending every page into one bounded channel that the
//! caller owns. The channel's bound is the backpressure: a slow consumer parks the producers, and
//! a semaphore caps how many segments have a page in flight, so memory stays bounded even at
//! 1000 segments. One [`guard::CapacityGuard`] per read holds its budget and rate for all of them,
//! and a request is sent only with the [`reservation::Reservation`] it and the session's guard
//! minted for it; every read names the user action that asked for it ([`ReadSpec::cause`]).

pub mod attempt_charge;
mod byte_fill;
mod coordinator;
mod get_item;
pub mod guard;
#[cfg(any(test, feature = "test-engines"))]
pub mod memory;
mod request_json;
pub mod reservation;
mod sdk;
mod segment;
pub mod source;

#[cfg(test)]
mod engine_tests;

use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

pub use crate::model::engine::progress;
pub use crate::model::engine::read::{
    Delivery, DoneOutcome, EngineEvent, Operation, Page, PartiqlStatement, ReadBudget, ReadSpec,
    RequestId, SegmentStart, MAX_SEGMENTS,
};
pub use crate::model::engine::ReadProgress;
pub use coordinator::start_read;
pub(crate) use get_item::get_item;
pub use request_json::request_json;
pub(crate) use sdk::consumed_from_sdk;
pub use sdk::SdkSource;

use super::attempts::AttemptStats;
use super::error::EngineError;
pub use crate::model::engine::read_cause::ReadCause;

/// Segments with a request or an undelivered page at once; more segments than this still each
/// get their own task, they just take turns.
pub const MAX_IN_FLIGHT_SEGMENTS: usize = 64;
/// Requests in flight across all segments of a read. Each segment fetches its next page while
/// the current one is converted, which keeps a few segments' network busy; with many segments
/// the extra requests only crowd the server, so prefetching stops at this many in flight.
pub const PREFETCH_REQUESTS: usize = 8;

/// A running read. Dropping the handle does not stop it; `cancel` does.
pub struct ReadHandle {
    pub id: RequestId,
    cancel: CancellationToken,
    task: JoinHandle<()>,
}

impl ReadHandle {
    /// A read that fails before sending anything: its one event is `Failed` with `error`.
    pub fn failed(id: RequestId, error: EngineError, tx: mpsc::Sender<EngineEvent>) -> ReadHandle {
        let task = tokio::spawn(async move {
            let _ = tx
                .send(EngineEvent::Failed {
                    request_id: id,
                    segment: 0,
                    error,
                    attempts: AttemptStats::default(),
                    elapsed: Duration::ZERO,
                })
                .await;
        });
        ReadHandle {
            id,
            cancel: CancellationToken::new(),
            task,
        }
    }

    /// A read run by `task`, stopped through `cancel` (a backend with its own readers).
    pub(crate) fn from_parts(
        id: RequestId,
        cancel: CancellationToken,
        task: JoinHandle<()>,
    ) -> ReadHandle {
        ReadHandle { id, cancel, task }
    }

    pub fn cancel(&self) {
        self.cancel.cancel();
    }

    pub fn cancel_token(&self) -> CancellationToken {
        self.cancel.clone()
    }

    pub fn is_finished(&self) -> bool {
        self.task.is_finished()
    }

    /// Waits until every segment task has stopped and the final event was sent.
    pub async fn join(self) {
        let _ = self.task.await;
    }
}
