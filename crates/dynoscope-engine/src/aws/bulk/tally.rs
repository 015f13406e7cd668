//! What a bulk run (or its undo) has done so far: items by outcome, write units, and the
//! throttled attempts retried, counted by the service's reason.

use std::collections::BTreeMap;

use crate::aws::attempts::AttemptStats;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    pub done: usize,
    pub unchanged: usize,
    pub conflicts: usize,
    pub failed: usize,
    /// Refused by DynamoDB for good (a resumed run leaves them alone).
    pub refused: usize,
    pub units: f64,
    pub throttles: u64,
    pub reasons: BTreeMap<String, u64>,
}

impl Tally {
    /// Items that reached an outcome.
    pub fn finished(&self) -> usize {
        self.done + self.unchanged + self.conflicts + self.failed + self.refused
    }

    pub fn count_throttles(&mut self, attempts: &AttemptStats) {
        self.throttles += u64::from(attempts.throttles);
        if attempts.throttles > 0 && attempts.reasons.is_empty() {
            *self.reasons.entry("no reason given".into()).or_default() +=
                u64::from(attempts.throttles);
        }
        for r in &attempts.reasons {
            let name = if r.reason.is_empty() {
                "no reason given"
            } else {
                &r.reason
            };
            *self.reasons.entry(name.to_string()).or_default() += 1;
        }
    }

    pub fn throttle_clause(&self) -> String {
        if self.throttles == 0 {
            return String::new();
        }
        let reasons: Vec<String> = self
            .reasons
            .iter()
            .map(|(r, n)| format!("{r} {n}"))
            .collect();
        format!(
            "; {} throttled attempts retried ({})",
            self.throttles,
            reasons.join(", ")
        )
    }
}
