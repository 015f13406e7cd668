//! The session's read budget: `--max-rcu` for every call the agent makes, and
//! `--max-rcu-per-call` for each one. A call reserves its room before it sends anything (the
//! read's own capacity guard then holds it there, request by request, as it holds `--max-rcu`
//! across the segments of a CLI read) and settles with what DynamoDB reported, so calls that
//! run at once cannot together spend more than the session has.

use std::sync::Mutex;

use crate::model::capacity::{format_units, scan_estimate_units};

#[derive(Debug)]
pub struct SessionBudget {
    max: f64,
    per_call: f64,
    state: Mutex<Spent>,
}

#[derive(Debug, Default)]
struct Spent {
    spent: f64,
    reserved: f64,
}

/// Room reserved for one call; settle it exactly once.
#[derive(Debug)]
pub struct Reservation {
    room: f64,
    /// What the call's capacity guard may spend: the room less one 4 KB block, because the
    /// guard sizes its last request to what is left and DynamoDB rounds each page up to whole
    /// blocks.
    pub guard_max: f64,
}

/// What a result says about the session's capacity after the call.
#[derive(Debug, Clone, Copy)]
pub struct Standing {
    pub spent: f64,
    pub left: f64,
    pub max: f64,
    pub per_call: f64,
}

impl SessionBudget {
    pub fn new(max: f64, per_call: f64) -> Self {
        SessionBudget {
            max,
            per_call: per_call.min(max),
            state: Mutex::new(Spent::default()),
        }
    }

    /// Reserves room for a read with `consistent` requests, or says why there is none (the
    /// budget, what is spent and how to raise it).
    pub fn reserve(&self, consistent: bool) -> Result<Reservation, String> {
        let block = scan_estimate_units(1, consistent);
        let mut s = self.state.lock().expect("budget lock");
        let left = (self.max - s.spent - s.reserved).max(0.0);
        let room = self.per_call.min(left);
        if room - block < block {
            return Err(format!(
                "refused: the session's read budget is spent ({} of --max-rcu {} RCU consumed{}, {} RCU left; a read needs at least {} RCU); nothing was sent. Restart the server with a larger --max-rcu (e.g. --max-rcu {}) to read more",
                format_units(s.spent),
                format_units(self.max),
                if s.reserved > 0.0 { format!(", {} RCU held by calls in progress", format_units(s.reserved)) } else { String::new() },
                format_units(left),
                format_units(2.0 * block),
                format_units(self.max * 2.0)
            ));
        }
        s.reserved += room;
        Ok(Reservation {
            room,
            guard_max: room - block,
        })
    }

    /// Replaces the reservation with what the call consumed.
    pub fn settle(&self, reservation: Reservation, consumed: f64) {
        let mut s = self.state.lock().expect("budget lock");
        s.reserved = (s.reserved - reservation.room).max(0.0);
        s.spent += consumed;
    }

    pub fn standing(&self) -> Standing {
        let s = self.state.lock().expect("budget lock");
        Standing {
            spent: s.spent,
            left: (self.max - s.spent).max(0.0),
            max: self.max,
            per_call: self.per_call,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_reserve_before_they_spend_and_the_session_refuses_once_spent() {
        let budget = SessionBudget::new(10.0, 4.0);
        let a = budget.reserve(false).unwrap();
        assert_eq!(a.guard_max, 3.5, "the per-call cap less one block");
        let b = budget.reserve(false).unwrap();
        // Two calls in flight hold 8 of 10: a third gets the 2 left, less a block.
        let c = budget.reserve(false).unwrap();
        assert_eq!(c.guard_max, 1.5);
        let err = budget.reserve(false).unwrap_err();
        assert!(err.contains("--max-rcu 10"), "{err}");
        assert!(err.contains("held by calls in progress"), "{err}");
        budget.settle(a, 3.0);
        budget.settle(b, 3.5);
        budget.settle(c, 1.5);
        let standing = budget.standing();
        assert_eq!((standing.spent, standing.left), (8.0, 2.0));
        // 2 left: one block for the read and one held back is just enough.
        let d = budget.reserve(false).unwrap();
        assert_eq!(d.guard_max, 1.5);
        budget.settle(d, 1.5);
        let err = budget.reserve(false).unwrap_err();
        assert!(err.contains("9.5 of --max-rcu 10 RCU consumed"), "{err}");
        assert!(
            err.contains("Restart the server with a larger --max-rcu"),
            "{err}"
        );
    }

    #[test]
    fn strongly_consistent_reads_hold_back_a_whole_unit() {
        let budget = SessionBudget::new(100.0, 3.0);
        assert_eq!(budget.reserve(true).unwrap().guard_max, 2.0);
        let small = SessionBudget::new(1.5, 1.5);
        assert!(small.reserve(true).is_err());
        assert_eq!(small.reserve(false).unwrap().guard_max, 1.0);
    }
}
