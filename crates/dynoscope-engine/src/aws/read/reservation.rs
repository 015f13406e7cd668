//! The only way a read request reaches DynamoDB: with a [`Reservation`] the guards minted.
//!
//! Every Query, Scan, ExecuteStatement page and GetItem is sent by a function that takes a
//! `Reservation` (by value, or borrowed while [`Reservation::send`] owns it), and a reservation
//! exists only once [`ReadGuards::admit`] (or [`SessionGuard::reserve`]) admitted the request
//! against the read's own guard (`--max-rcu`, `--rcu-per-second` of that read) and the
//! session's (the explorer's `--max-rcu`, `--rcu-per-second`). Its fields are private and it has
//! no public constructor, so a request without one does not compile:
//!
//! ```compile_fail
//! use dynoscope_engine::aws::read::reservation::Reservation;
//! use dynoscope_engine::model::engine::read_cause::ReadCause;
//! // No guard admitted this: there is nothing to build it from.
//! let forged = Reservation { limit: Some(100), cause: ReadCause::Scan };
//! ```
//!
//! ```compile_fail
//! use dynoscope_engine::aws::read::reservation::Reservation;
//! let forged: Reservation = Default::default();
//! ```
//!
//! A read page is sent only by a [`super::source::PageSource`], whose `fetch` needs the
//! reservation, and whose `Limit` is the one the guards admitted (`Reservation::limit`): a
//! source without one does not compile either.
//!
//! ```compile_fail
//! use dynoscope_engine::aws::read::source::PageSource;
//! fn send_unreserved<S: PageSource>(s: &S, request: dynoscope_engine::aws::read::source::PageRequest) {
//!     let recorder = dynoscope_engine::aws::attempts::AttemptRecorder::default();
//!     let _ = s.fetch(request, &Default::default(), recorder);
//! }
//! ```
//!
//! Minted by the guard it compiles, and the send settles it with what DynamoDB reported:
//!
//! ```
//! use dynoscope_engine::aws::read::reservation::{Refused, SessionGuard};
//! use dynoscope_engine::model::engine::read_cause::ReadCause;
//! # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
//! let session = SessionGuard::new(Some(2.0), None).unwrap();
//! let reservation = session.reserve(Some(1), ReadCause::ConflictReread).await.unwrap();
//! assert_eq!(reservation.cause(), ReadCause::ConflictReread);
//! reservation.settle(2.0, 1);
//! assert!(matches!(
//!     session.reserve(Some(1), ReadCause::ConflictReread).await,
//!     Err(Refused { .. })
//! ));
//! # });
//! ```
//!
//! A reservation dropped unsettled (its request aborted on the wire) is charged its worst
//! case: DynamoDB may have served it.

use std::fmt;
use std::sync::Arc;

use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::attempt_charge::AttemptCharge;
use super::guard::{Admission, CapacityGuard, Ticket};
use super::source::{PageRequest, PageSource, RawPage};
use crate::aws::attempts::AttemptRecorder;
use crate::aws::error::EngineError;
use crate::model::engine::read_cause::ReadCause;
use crate::model::traffic::capacity::{format_units, worst_case_read_units};

/// The explorer's session-wide budget and rate: every read of the session, its key samples and
/// its writes' re-reads are admitted by it as well as by their own guard. Cheap to clone.
#[derive(Debug, Clone)]
pub struct SessionGuard {
    guard: Arc<CapacityGuard>,
    max_units: Option<f64>,
    units_per_second: Option<f64>,
}

/// A request the guards would not admit: the budget is spent.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    /// The budget that refused it: `--max-rcu N`.
    pub budget: f64,
    /// Read units the session spent so far.
    pub spent: f64,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the session's --max-rcu {} is spent ({} read units consumed)",
            format_units(self.budget),
            format_units(self.spent)
        )
    }
}

impl SessionGuard {
    /// `None` when neither limit is set. Its reservations are sized as strongly consistent
    /// reads (a 4 KB block costs a whole unit): a session mixes both kinds, and the worst case
    /// of either then fits.
    pub fn new(max_units: Option<f64>, units_per_second: Option<f64>) -> Option<SessionGuard> {
        CapacityGuard::new(max_units, units_per_second, true).map(|g| SessionGuard {
            guard: Arc::new(g),
            max_units,
            units_per_second,
        })
    }

    pub fn max_units(&self) -> Option<f64> {
        self.max_units
    }

    pub fn units_per_second(&self) -> Option<f64> {
        self.units_per_second
    }

    /// Read units the session's requests consumed (settled) so far.
    pub fn spent(&self) -> f64 {
        self.guard.spent()
    }

    /// Admits one request outside a read (a GetItem): waits for the rate, refuses when the
    /// budget is spent.
    pub async fn reserve(
        &self,
        limit: Option<i32>,
        cause: ReadCause,
    ) -> Result<Reservation, Refused> {
        reserve(Some(self), limit, cause).await
    }

    fn refused(&self) -> Refused {
        Refused {
            budget: self.max_units.unwrap_or(0.0),
            spent: self.spent(),
        }
    }
}

/// Admits one request outside a read against `session` (without one, only the request's
/// cause is recorded): refused when its budget is spent.
pub async fn reserve(
    session: Option<&SessionGuard>,
    limit: Option<i32>,
    cause: ReadCause,
) -> Result<Reservation, Refused> {
    let guards = ReadGuards {
        own: None,
        session: session.cloned(),
        item_bytes: None,
    };
    match guards.admit(limit, cause, &CancellationToken::new()).await {
        Some(Admitted::Go(reservation)) => Ok(reservation),
        Some(Admitted::Exhausted {
            session: Some(refused),
        }) => Err(refused),
        _ => Err(session.map_or(
            Refused {
                budget: 0.0,
                spent: 0.0,
            },
            SessionGuard::refused,
        )),
    }
}

/// The guards one read's requests go through: its own, then the session's.
#[derive(Debug, Default)]
pub struct ReadGuards {
    own: Option<Arc<CapacityGuard>>,
    session: Option<SessionGuard>,
    /// The read's average item size, for sizing requests before any page settled.
    item_bytes: Option<u64>,
}

/// What [`ReadGuards::admit`] says about the next request.
#[derive(Debug)]
pub enum Admitted {
    Go(Reservation),
    /// A budget is spent: the read stops here. `session` names the session's refusal, `None`
    /// when it was the read's own `--max-rcu`.
    Exhausted {
        session: Option<Refused>,
    },
}

impl ReadGuards {
    pub fn new(own: Option<CapacityGuard>, session: Option<SessionGuard>) -> Self {
        ReadGuards {
            own: own.map(Arc::new),
            session,
            item_bytes: None,
        }
    }

    /// Requests sized before any page settled assume items of `bytes` (DescribeTable's
    /// average), not of one 4 KB block.
    pub fn with_item_bytes(mut self, bytes: Option<u64>) -> Self {
        self.item_bytes = bytes;
        self
    }

    /// Waits until a request asking for `limit` items may be sent; `None` when `stop` fires
    /// first. The read's own guard admits first, then the session's, each lowering `Limit`.
    pub async fn admit(
        &self,
        limit: Option<i32>,
        cause: ReadCause,
        stop: &CancellationToken,
    ) -> Option<Admitted> {
        let mut held: Vec<(Arc<CapacityGuard>, Ticket)> = Vec::new();
        let mut limit = limit;
        let mut admitted_at = None;
        let session = self.session.as_ref().map(|s| &s.guard);
        for guard in [self.own.as_ref(), session].into_iter().flatten() {
            match guard.admit_sized(limit, self.item_bytes, stop).await {
                Some(Admission::Go {
                    ticket,
                    limit: admitted,
                    at,
                }) => {
                    limit = admitted;
                    // The guards admit one after the other: the last one's clock is the latest.
                    admitted_at = Some(at);
                    held.push((guard.clone(), ticket));
                }
                other => {
                    // Not sent: what the earlier guards reserved is given back.
                    for (guard, ticket) in held {
                        guard.settle(ticket, 0.0, 0);
                    }
                    // `None`: stopped while waiting; otherwise this guard's budget is spent.
                    return other.map(|_| Admitted::Exhausted {
                        session: session
                            .is_some_and(|s| Arc::ptr_eq(s, guard))
                            .then(|| self.session.as_ref().expect("session").refused()),
                    });
                }
            }
        }
        Some(Admitted::Go(Reservation {
            charge: AttemptCharge::new(held),
            limit,
            cause,
            admitted_at: admitted_at.unwrap_or_else(Instant::now),
        }))
    }
}

/// One admitted request: the capacity its guards reserved for it, its `Limit`, and the user
/// action that asked for it. Only the guards mint one; sending consumes it and settles it with
/// what the request consumed.
#[derive(Debug)]
pub struct Reservation {
    /// The guards' tickets, shared with the interceptor that charges every attempt.
    charge: AttemptCharge,
    limit: Option<i32>,
    cause: ReadCause,
    /// When the guards let it go: the send time their rate limits count.
    admitted_at: Instant,
}

impl Reservation {
    /// The `Limit` to send: the request's own, lowered by the guards.
    pub fn limit(&self) -> Option<i32> {
        self.limit
    }

    /// When the guards admitted it (now, for a read without guards). The read reports it as
    /// the page's send time, so the times a test or the log sees are the ones the rate was
    /// held to, not those plus the scheduling delay of the task that sends it.
    pub fn admitted_at(&self) -> Instant {
        self.admitted_at
    }

    pub fn cause(&self) -> ReadCause {
        self.cause
    }

    /// Replaces what was reserved with what the request consumed; `evaluated` is the page's
    /// ScannedCount (0 for a request that failed).
    pub fn settle(self, units: f64, evaluated: u64) {
        for (guard, ticket) in self.charge.take() {
            guard.settle(ticket, units, evaluated);
        }
    }

    /// What every attempt of the request is charged against (see `attempt_charge.rs`).
    pub fn charge(&self) -> &AttemptCharge {
        &self.charge
    }
}

impl Reservation {
    /// Sends one page of a read: the only call of [`PageSource::fetch`]. The reservation is
    /// consumed and settled with the capacity the response reported (its worst case when it
    /// reported none, see `sdk::consumed_or_worst_case`; nothing for a request that failed).
    pub(super) async fn send<S: PageSource>(
        self,
        source: &S,
        request: PageRequest,
        recorder: AttemptRecorder,
    ) -> Result<RawPage<S::Items>, EngineError> {
        // Every attempt whose answer was lost is charged its worst case, on the page too.
        let one = worst_case_read_units(self.limit, request.spec.consistent);
        let recorder = recorder.charged(self.charge.clone());
        let mut result = source.fetch(request, &self, recorder).await;
        let lost = f64::from(self.charge.lost()) * one;
        let (units, evaluated) = match &mut result {
            Ok(raw) => {
                raw.consumed.total += lost;
                raw.consumed.table += lost;
                (raw.consumed.total, raw.scanned_count)
            }
            Err(_) => (lost, 0),
        };
        self.settle(units, evaluated);
        result
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        // Dropped unsettled: its request was aborted after it may have been sent. DynamoDB may
        // have served it (and every attempt before), so it is charged what was reserved for
        // its attempts rather than nothing.
        for (guard, ticket) in self.charge.take() {
            let worst = ticket.reserved();
            guard.settle(ticket, worst, 0);
        }
    }
}

#[cfg(test)]
#[path = "reservation_tests.rs"]
mod tests;
