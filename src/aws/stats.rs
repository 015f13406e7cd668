//! Running totals of a read, as `--stats` prints them.

use serde::Serialize;

use super::read::Page;
use crate::model::capacity::Consumed;

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
    }

    /// A request that failed after its retries still cost attempts.
    pub fn add_failure(&mut self, attempts: &crate::aws::attempts::AttemptStats) {
        self.requests += 1;
        self.attempts += u64::from(attempts.attempts);
        self.throttles += u64::from(attempts.throttles);
    }
}
