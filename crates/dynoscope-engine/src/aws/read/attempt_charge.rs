//! What every attempt of one read request is charged. The SDK retries a request on its own
//! (a throttle, a 500, a timeout); a timed-out attempt may well have been served and paid for
//! after the client gave up on it, and only the last attempt's answer says what it consumed.
//! So an attempt whose answer never came back (a timeout, a reset connection, a body cut short)
//! stays charged at its reservation's worst case, and before each retry the guards that
//! admitted the request must cover one more worst case for every such attempt, or the retry is
//! refused and the request fails. An attempt that was answered (a throttle) consumed what its
//! answer says: nothing, for an error.
//!
//! The [`AttemptCharge`] goes with the request's [`super::reservation::Reservation`]; the
//! engine's one attempt interceptor (`aws::attempts::Attempts`) asks it before each attempt
//! and tells it how each ended.

use std::sync::{Arc, Mutex};

use super::guard::{CapacityGuard, Ticket};
use crate::model::traffic::capacity::format_units;

/// The tickets one request holds, shared with the interceptor that sees its attempts.
#[derive(Debug, Clone, Default)]
pub struct AttemptCharge(Arc<Mutex<Charge>>);

#[derive(Debug, Default)]
struct Charge {
    held: Vec<(Arc<CapacityGuard>, Ticket)>,
    /// Each guard's worst case of one attempt: what it first reserved.
    per_attempt: Vec<f64>,
    attempts: u32,
    /// Attempts whose answer did not come back.
    lost: u32,
}

impl AttemptCharge {
    pub(super) fn new(held: Vec<(Arc<CapacityGuard>, Ticket)>) -> Self {
        let per_attempt = held.iter().map(|(_, t)| t.reserved()).collect();
        AttemptCharge(Arc::new(Mutex::new(Charge {
            held,
            per_attempt,
            attempts: 0,
            lost: 0,
        })))
    }

    /// Before an attempt: every guard must hold one worst case for it beside one for each
    /// attempt lost so far. `Err` (the retry is not made) when a budget cannot cover it.
    pub fn admit(&self) -> Result<(), String> {
        let Ok(mut c) = self.0.lock() else {
            return Ok(());
        };
        c.attempts += 1;
        let needed = f64::from(c.lost + 1);
        let Charge {
            held, per_attempt, ..
        } = &mut *c;
        for ((guard, ticket), &one) in held.iter_mut().zip(per_attempt.iter()) {
            // A little slack: sums of f64 worst cases.
            if ticket.reserved() + 1e-9 < needed * one && !guard.extend(ticket, one) {
                return Err(format!(
                    "not retried: an attempt that got no answer may have been served, and the read budget cannot cover another attempt's worst case of {} read units (--max-rcu {}, {} spent)",
                    format_units(one),
                    format_units(guard.max_units().unwrap_or_default()),
                    format_units(guard.spent())
                ));
            }
        }
        Ok(())
    }

    /// After an attempt: `answered` when the service's answer came back whole.
    pub fn ended(&self, answered: bool) {
        if let Ok(mut c) = self.0.lock() {
            c.lost += u32::from(!answered);
        }
    }

    /// Attempts whose answer did not come back, so far.
    pub fn lost(&self) -> u32 {
        self.0.lock().map(|c| c.lost).unwrap_or_default()
    }

    /// The tickets, to settle; afterwards the charge holds none.
    pub(super) fn take(&self) -> Vec<(Arc<CapacityGuard>, Ticket)> {
        self.0
            .lock()
            .map(|mut c| std::mem::take(&mut c.held))
            .unwrap_or_default()
    }
}
