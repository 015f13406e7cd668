//! The session's read budget, held by the engine's own guards: `--max-rcu` and `--rcu-per-second`
//! are the engine's [`SessionGuard`] (every request of every call is admitted by it before it is
//! sent, and settled with what DynamoDB reported, as the explorer's session and `patterns check`
//! are), and `--max-rcu-per-call` is each read's own guard (`budget.max_rcu` of its [`ReadSpec`]).
//! The two admit every request together (the engine's `ReadGuards`), so calls that run at once
//! cannot together spend more than the session has, and this file only sets them up and words what
//! they say.

use crate::aws::{ReadSpec, SessionGuard};
use crate::model::traffic::capacity::{format_units, scan_estimate_units};

/// Units held back from each guard's budget for the rounding of its last page: the guard
/// sizes that request to the room left from the cost per item seen so far, and DynamoDB
/// rounds each page up to whole 4 KB blocks. The session guard sizes its reservations as
/// strongly consistent reads (a block is a whole unit).
fn held_back(budget: f64, consistent: bool) -> f64 {
    scan_estimate_units(1, consistent).min(budget / 2.0)
}

#[derive(Debug, Clone)]
pub struct Budget {
    session: SessionGuard,
    /// `--max-rcu`, as the user gave it.
    max: f64,
    /// `--max-rcu-per-call`, at most `max`.
    per_call: f64,
}

/// What a result says about the session's capacity after the call.
#[derive(Debug, Clone, Copy)]
pub struct Standing {
    pub spent: f64,
    pub left: f64,
    pub max: f64,
    pub per_call: f64,
}

impl Budget {
    pub fn new(max: f64, per_call: f64, rcu_per_second: Option<f64>) -> Self {
        let guarded = max - held_back(max, true);
        Budget {
            session: SessionGuard::new(Some(guarded), rcu_per_second).expect("a budget is set"),
            max,
            per_call: per_call.min(max),
        }
    }

    /// The guard the engine admits every request of the session with
    /// (`Engine::with_session_guard`).
    pub fn session_guard(&self) -> SessionGuard {
        self.session.clone()
    }

    /// Puts `spec` under the per-call cap (its own guard); the session's rate is the session
    /// guard's.
    pub fn per_call(&self, spec: &mut ReadSpec) {
        spec.budget.max_rcu = Some(self.per_call - held_back(self.per_call, spec.consistent));
        spec.budget.rcu_per_second = None;
    }

    /// Whether the session guard would refuse every request now.
    pub fn spent(&self) -> bool {
        self.session
            .max_units()
            .is_some_and(|max| self.session.spent() >= max)
    }

    /// Refuses a reading call before it sends anything once the session's budget is spent,
    /// naming it and how to raise it.
    pub fn check(&self) -> Result<(), String> {
        match self.spent() {
            true => Err(self.refusal()),
            false => Ok(()),
        }
    }

    pub fn refusal(&self) -> String {
        let s = self.standing();
        format!(
            "refused: the session's read budget is spent ({} of --max-rcu {} RCU consumed, {} RCU left, held back for the rounding of the last page); nothing was sent. Restart the server with a larger --max-rcu (e.g. --max-rcu {}) to read more",
            format_units(s.spent),
            format_units(s.max),
            format_units(s.left),
            format_units(s.max * 2.0)
        )
    }

    pub fn standing(&self) -> Standing {
        let spent = self.session.spent();
        Standing {
            spent,
            left: (self.max - spent).max(0.0),
            max: self.max,
            per_call: self.per_call,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aws::{Operation, ReadCause};

    #[test]
    fn the_session_guard_holds_the_budget_less_a_unit_and_each_read_the_per_call_cap() {
        let budget = Budget::new(10.0, 4.0, Some(50.0));
        let guard = budget.session_guard();
        assert_eq!(guard.max_units(), Some(9.0));
        assert_eq!(guard.units_per_second(), Some(50.0));
        let mut spec = ReadSpec::new(Operation::Query, "t", ReadCause::AgentCall);
        spec.budget.rcu_per_second = Some(7.0);
        budget.per_call(&mut spec);
        assert_eq!(
            spec.budget.max_rcu,
            Some(3.5),
            "the per-call cap less one block"
        );
        assert_eq!(
            spec.budget.rcu_per_second, None,
            "the rate is the session's"
        );
        spec.consistent = true;
        budget.per_call(&mut spec);
        assert_eq!(spec.budget.max_rcu, Some(3.0));
        // A per-call cap above the budget is the budget.
        assert_eq!(Budget::new(2.0, 25.0, None).standing().per_call, 2.0);
    }

    #[tokio::test]
    async fn once_the_session_guard_has_spent_it_every_call_is_refused_naming_the_budget() {
        let budget = Budget::new(3.0, 3.0, None);
        assert!(budget.check().is_ok());
        let guard = budget.session_guard();
        let reservation = guard.reserve(Some(1), ReadCause::AgentCall).await.unwrap();
        reservation.settle(2.0, 1);
        let err = budget.check().unwrap_err();
        assert!(err.contains("2 of --max-rcu 3 RCU consumed"), "{err}");
        assert!(err.contains("1 RCU left"), "{err}");
        assert!(err.contains("e.g. --max-rcu 6"), "{err}");
        let s = budget.standing();
        assert_eq!((s.spent, s.left, s.max), (2.0, 1.0, 3.0));
    }
}
