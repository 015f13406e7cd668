//! The read feeding the item store: who asked for it, how it pages, and how it ended.

use crate::model::engine::{Operation, ReadProgress, ReadSpec};

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

/// Items per page the explorer asks for: enough to browse, and a first screen costs a few RCU
/// instead of a full 1 MB page's 128.
pub const EXPLORER_PAGE_SIZE: i32 = 1000;

/// Who asked for the read feeding the store; it decides how the read pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadOrigin {
    /// The first scan, `r`, a partition-key query, the query form, the index chooser.
    Plain,
    /// `g r` and the related pane: one collection's Query.
    Walk,
    /// An access pattern of the palette (`sharded`: one segment per write shard).
    Pattern { sharded: bool },
    /// The triage scan launcher: a parallel scan with per-segment progress.
    Launcher,
}

impl ReadOrigin {
    /// `(budget.max_pages, page_size)` of the read's first request. A browsing read loads one
    /// page; a sharded pattern reads each shard to its end (or the limit); a triage scan
    /// streams to its end (or its budget) in pages capped so that applying one takes a few
    /// milliseconds, and a keypress never waits behind a 15,000-item 1 MB page (capacity is
    /// charged per 4 KB read either way).
    pub fn first_paging(self) -> (Option<u32>, Option<i32>) {
        match self {
            ReadOrigin::Plain | ReadOrigin::Walk | ReadOrigin::Pattern { sharded: false } => {
                (Some(1), Some(EXPLORER_PAGE_SIZE))
            }
            ReadOrigin::Pattern { sharded: true } => (None, Some(EXPLORER_PAGE_SIZE)),
            ReadOrigin::Launcher => (None, Some(super::TRIAGE_PAGE_ITEMS)),
        }
    }

    /// `(budget.max_pages, page_size)` of a continuation (`n`, or everything with `all`); `None`:
    /// the continuation keeps the read's own (a triage scan already reads to its end).
    pub fn next_paging(self, all: bool) -> Option<(Option<u32>, Option<i32>)> {
        match self {
            ReadOrigin::Launcher => None,
            // Loading everything goes faster in DynamoDB's own 1 MB pages.
            _ if all => Some((None, None)),
            _ => Some((Some(1), Some(EXPLORER_PAGE_SIZE))),
        }
    }
}

/// The read feeding the item store: a Scan or a Query (all shards of a write-sharded one),
/// loaded page by page on demand.
#[derive(Debug, Clone)]
pub struct ReadState {
    pub id: u64,
    /// Who asked for it; its continuations keep it.
    pub origin: ReadOrigin,
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
    pub fn new(id: u64, spec: ReadSpec, spent_rcu: f64, origin: ReadOrigin) -> Self {
        ReadState {
            id,
            origin,
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
