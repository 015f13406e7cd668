//! Starts a read's segment tasks and sends its one final event when they have all stopped.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::sync::{mpsc, Semaphore};
use tokio::task::JoinSet;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::guard::CapacityGuard;
use super::reservation::{ReadGuards, Refused, SessionGuard};
use super::segment::{run_segment, SegmentFailure};
use super::source::PageSource;
use super::{
    DoneOutcome, EngineEvent, ReadHandle, ReadSpec, RequestId, MAX_IN_FLIGHT_SEGMENTS,
    PREFETCH_REQUESTS,
};
use crate::aws::attempts::AttemptStats;
use crate::aws::error::EngineError;

/// What all segment tasks of one read share.
pub(super) struct Shared<S> {
    pub source: Arc<S>,
    pub spec: Arc<ReadSpec>,
    pub request_id: RequestId,
    pub tx: mpsc::Sender<EngineEvent>,
    /// Cancelled by the user, by a failure, or when the limit is reached: nothing more is sent.
    pub stop: CancellationToken,
    /// Cancelled only by the user (`ReadHandle::cancel`): requests on the wire are abandoned.
    pub user_cancel: CancellationToken,
    pub remaining: Remaining,
    pub limit_reached: AtomicBool,
    /// The read's own guard and the session's: every request is admitted by them.
    pub guards: ReadGuards,
    pub budget_reached: AtomicBool,
    /// The session's budget stopped the read: said in its `Done`'s log line.
    pub session_refused: std::sync::OnceLock<Refused>,
    /// Segments with a request or a page in memory at once.
    pub in_flight: Semaphore,
    /// Requests on the wire at once: at least one per active segment, prefetches beyond that
    /// only while fewer than `PREFETCH_REQUESTS` are in flight.
    pub requests: Semaphore,
    pub started: Instant,
}

/// Items the limit still allows.
pub(super) enum Remaining {
    Unlimited,
    Total(AtomicUsize),
    PerSegment(Vec<AtomicUsize>),
}

impl Remaining {
    fn counter(&self, segment: u32) -> Option<&AtomicUsize> {
        match self {
            Remaining::Unlimited => None,
            Remaining::Total(n) => Some(n),
            Remaining::PerSegment(v) => v.get(segment as usize),
        }
    }

    pub fn left(&self, segment: u32) -> Option<usize> {
        self.counter(segment).map(|n| n.load(Ordering::Acquire))
    }

    /// Takes up to `wanted` for `segment`; returns how many were granted.
    pub fn take(&self, segment: u32, wanted: usize) -> usize {
        let Some(remaining) = self.counter(segment) else {
            return wanted;
        };
        let mut current = remaining.load(Ordering::Acquire);
        loop {
            let take = current.min(wanted);
            match remaining.compare_exchange(
                current,
                current - take,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return take,
                Err(actual) => current = actual,
            }
        }
    }
}

/// Starts `spec` against `source`; its events arrive on `tx`, ending with exactly one `Done`
/// or `Failed`. Every request is admitted by the read's own guard (`spec.budget.max_rcu`,
/// `spec.budget.rcu_per_second`) and by `session`'s.
pub fn start_read<S: PageSource>(
    source: Arc<S>,
    request_id: RequestId,
    spec: ReadSpec,
    session: Option<SessionGuard>,
    tx: mpsc::Sender<EngineEvent>,
) -> ReadHandle {
    let cancel = CancellationToken::new();
    let segments = spec.segment_count();
    let left = spec.limit_left();
    let remaining = match (spec.limit, spec.limit_per_segment) {
        (None, _) => Remaining::Unlimited,
        (Some(_), false) => Remaining::Total(AtomicUsize::new(left[0])),
        (Some(_), true) => Remaining::PerSegment(left.into_iter().map(AtomicUsize::new).collect()),
    };
    let shared = Arc::new(Shared {
        source,
        request_id,
        tx,
        stop: cancel.child_token(),
        user_cancel: cancel.clone(),
        remaining,
        limit_reached: AtomicBool::new(false),
        guards: ReadGuards::new(
            CapacityGuard::new(
                spec.budget.max_rcu,
                spec.budget.rcu_per_second,
                spec.consistent,
            ),
            session,
        )
        .with_item_bytes(spec.average_item_bytes),
        budget_reached: AtomicBool::new(false),
        session_refused: std::sync::OnceLock::new(),
        in_flight: Semaphore::new((segments as usize).min(MAX_IN_FLIGHT_SEGMENTS)),
        requests: Semaphore::new(
            (segments as usize).clamp(PREFETCH_REQUESTS, MAX_IN_FLIGHT_SEGMENTS),
        ),
        started: Instant::now(),
        spec: Arc::new(spec),
    });
    let task = tokio::spawn(async move {
        let mut set = JoinSet::new();
        for segment in 0..segments {
            set.spawn(run_segment(shared.clone(), segment));
        }
        let mut failure: Option<SegmentFailure> = None;
        while let Some(joined) = set.join_next().await {
            let result = joined.unwrap_or_else(|e| {
                Err(SegmentFailure {
                    segment: 0,
                    error: EngineError::service(format!(
                        "a segment task stopped unexpectedly: {e}"
                    )),
                    attempts: AttemptStats::default(),
                })
            });
            if let Err(f) = result {
                // One segment failing fails the read; stop the others promptly. Later
                // failures are reported as abandoned requests so their attempts count.
                shared.stop.cancel();
                match failure {
                    None => failure = Some(f),
                    Some(_) => {
                        let _ = shared
                            .tx
                            .send(EngineEvent::Abandoned {
                                request_id,
                                segment: f.segment,
                                attempts: f.attempts,
                            })
                            .await;
                    }
                }
            }
        }
        let elapsed = shared.started.elapsed();
        let event = match failure {
            Some(f) => EngineEvent::Failed {
                request_id,
                segment: f.segment,
                error: f.error,
                attempts: f.attempts,
                elapsed,
            },
            None => EngineEvent::Done {
                request_id,
                outcome: if shared.limit_reached.load(Ordering::Acquire) {
                    DoneOutcome::LimitReached
                } else if shared.budget_reached.load(Ordering::Acquire) {
                    DoneOutcome::BudgetReached
                } else if shared.user_cancel.is_cancelled() {
                    DoneOutcome::Cancelled
                } else {
                    DoneOutcome::Complete
                },
                elapsed,
            },
        };
        let _ = shared.tx.send(event).await;
    });
    ReadHandle {
        id: request_id,
        cancel,
        task,
    }
}
