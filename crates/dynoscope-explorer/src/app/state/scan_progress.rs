//! Per-segment progress of a launched scan, over all the reads that continued it.

use std::time::Duration;

use crate::model::engine::Page;

/// Per-segment progress of a launched scan, over all the reads that continued it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScanProgress {
    /// The read whose pages count now (each resume is a new read).
    pub request_id: u64,
    pub segments: Vec<SegmentProgress>,
    pub estimate_rcu: f64,
    pub spent_rcu: f64,
    /// Capacity allowed so far: the launcher's budget plus each resume's.
    pub budget_rcu: Option<f64>,
    pub items: u64,
    pub scanned: u64,
    /// Time the earlier reads of this scan took.
    pub elapsed_before: Duration,
    /// How far into the current read the last page or its end came, by the engine's clock:
    /// rates are over the scan's own time, never the explorer's.
    pub elapsed: Duration,
    pub finished: bool,
    /// A scan of an export's files (`--export`): it spends no read capacity, so its title
    /// says so instead of counting RCU against a table's estimate.
    pub from_files: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SegmentProgress {
    pub items: u64,
    pub scanned: u64,
    pub pages: u32,
    pub done: bool,
}

impl ScanProgress {
    pub fn record(&mut self, page: &Page) {
        let Some(seg) = self.segments.get_mut(page.segment as usize) else {
            return;
        };
        seg.items += page.item_count() as u64;
        seg.scanned += page.scanned_count;
        seg.pages += 1;
        seg.done = page.last_evaluated_key.is_none();
        self.items += page.item_count() as u64;
        self.scanned += page.scanned_count;
        self.spent_rcu += page.consumed.total;
        self.elapsed = self.elapsed.max(page.sent_at + page.latency);
    }

    /// The current read ended after `elapsed`; `finished` when nothing is left to read.
    pub fn finish(&mut self, elapsed: Duration, finished: bool) {
        self.elapsed = self.elapsed.max(elapsed);
        self.finished = finished;
    }

    /// A new read (`request_id`) continues the scan; `budget` is the new total allowed.
    pub fn continue_with(&mut self, request_id: u64, budget: Option<f64>) {
        self.request_id = request_id;
        self.elapsed_before += self.elapsed;
        self.elapsed = Duration::ZERO;
        if budget.is_some() {
            self.budget_rcu = budget;
        }
    }

    /// Items/s and RCU/s over the scan's own time, and the seconds left at that rate (from
    /// the estimate) while it runs.
    pub fn rates(&self) -> (f64, f64, Option<f64>) {
        let secs = (self.elapsed_before + self.elapsed)
            .as_secs_f64()
            .max(0.001);
        let rcu_rate = self.spent_rcu / secs;
        let eta = (!self.finished && rcu_rate > 0.0 && self.estimate_rcu > self.spent_rcu)
            .then(|| (self.estimate_rcu - self.spent_rcu) / rcu_rate);
        (self.scanned as f64 / secs, rcu_rate, eta)
    }
}
