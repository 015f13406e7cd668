//! The read feeding the item store, and how it ended.

use crate::aws::{Operation, ReadProgress, ReadSpec};

#[derive(Debug, Clone, PartialEq)]
pub enum ReadOutcome {
    Complete,
    /// `limit` items were loaded; `n` loads the next `limit`.
    LimitReached,
    /// The capacity budget stopped the read: it resumes only with a new budget.
    BudgetReached {
        spent: f64,
        budget: f64,
    },
    Cancelled,
    Failed(String),
}

/// The read feeding the item store: a Scan or a Query (all shards of a write-sharded one),
/// loaded page by page on demand.
#[derive(Debug, Clone)]
pub struct ReadState {
    pub id: u64,
    /// The read as it was started; continuing it sends this again from `progress`.
    pub spec: ReadSpec,
    pub running: bool,
    /// Keep loading until the end (`load_all`) instead of one page per request.
    pub continuous: bool,
    pub outcome: Option<ReadOutcome>,
    /// Where each segment continues, from the pages delivered so far.
    pub progress: ReadProgress,
    pub pages: u64,
    /// Capacity consumed by this read and the reads it continued.
    pub spent_rcu: f64,
}

impl ReadState {
    pub fn new(id: u64, spec: ReadSpec, spent_rcu: f64) -> Self {
        ReadState {
            id,
            progress: ReadProgress::new(&spec),
            spec,
            running: true,
            continuous: false,
            outcome: None,
            pages: 0,
            spent_rcu,
        }
    }

    pub fn has_more(&self) -> bool {
        self.progress.has_more()
    }

    pub fn operation(&self) -> Operation {
        self.spec.operation
    }
}
