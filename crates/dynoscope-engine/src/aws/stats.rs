//! Running totals of a read, as `--stats` prints them.

use serde::Serialize;

use super::read::Page;
use crate::model::traffic::capacity::Consumed;
use crate::model::traffic::throttle::ReasonCounts;

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ReadStats {
    /// Query/Scan calls made, including one that finally failed.
    pub requests: u64,
    /// Pages received.
    pub pages: u64,
    pub count: u64,
    pub scanned_count: u64,
    pub consumed_capacity: Consumed,
    /// HTTP attempts, including the SDK's retries.
    pub attempts: u64,
    /// Attempts the service throttled.
    pub throttles: u64,
    /// Why: each throttled attempt's `ThrottlingReasons`, counted by reason and resource.
    #[serde(serialize_with = "crate::model::traffic::throttle::serialize_rows")]
    pub throttle_reasons: ReasonCounts,
    /// The read units of the dearest page: what a capacity guard may overshoot by.
    pub largest_page_rcu: f64,
    pub elapsed_ms: u64,
}

impl ReadStats {
    pub fn add_page(&mut self, page: &Page) {
        self.requests += 1;
        self.pages += 1;
        self.count += page.count;
        self.scanned_count += page.scanned_count;
        self.consumed_capacity.add(&page.consumed);
        self.largest_page_rcu = self.largest_page_rcu.max(page.consumed.total);
        self.attempts += u64::from(page.attempts.attempts);
        self.throttles += u64::from(page.attempts.throttles);
        self.throttle_reasons.add_all(&page.attempts.reasons);
    }

    /// A request that failed after its retries still cost attempts.
    pub fn add_failure(&mut self, attempts: &crate::aws::attempts::AttemptStats) {
        self.requests += 1;
        self.attempts += u64::from(attempts.attempts);
        self.throttles += u64::from(attempts.throttles);
        self.throttle_reasons.add_all(&attempts.reasons);
    }

    /// Why a failed read was throttled, for its error line (nothing when the service gave no
    /// reason): `; DynamoDB throttled 3 attempts: hot key range · index GSI1 ×3`.
    pub fn throttle_clause(&self) -> String {
        if self.throttle_reasons.is_empty() {
            return String::new();
        }
        format!(
            "; DynamoDB throttled {} {}: {}",
            self.throttles,
            crate::model::text::wording::noun(self.throttles, "attempt"),
            self.throttle_reasons
        )
    }

    /// The note a headless read that did not fail ends with when it was throttled: how often,
    /// and why (a failed read says it in its error line).
    pub fn throttle_note(&self) -> Option<String> {
        (self.throttles > 0).then(|| {
            let attempts = crate::model::text::wording::noun(self.throttles, "attempt");
            if self.throttle_reasons.is_empty() {
                format!(
                    "note: DynamoDB throttled {} {attempts} (the SDK retried them); it gave no reason",
                    self.throttles
                )
            } else {
                format!(
                    "note: DynamoDB throttled {} {attempts} (the SDK retried them): {}",
                    self.throttles, self.throttle_reasons
                )
            }
        })
    }
}
