//! What a read may spend: its pages and its read capacity, the limits the read's own guard and
//! segment tasks stop at (the session's guard is the engine's, beside it).

/// A read's own limits on pages and capacity; the default is none of them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReadBudget {
    /// Stop once consumed capacity reaches this many read units (`--max-rcu`), at most one
    /// page past it.
    pub max_rcu: Option<f64>,
    /// Spread requests so all segments together consume at most this many units a second.
    pub rcu_per_second: Option<f64>,
    /// Stop each segment after this many pages (the explorer loads page by page on demand).
    pub max_pages: Option<u32>,
}
