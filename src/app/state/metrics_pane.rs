//! The metrics pane (`M`): the open table's and its GSIs' CloudWatch series over the last
//! hours, with the verdicts of `diagnose` on top. One GetMetricData batch per refresh, asked
//! for every minute while the pane is open; a denied or failed call costs only the pane.

use crate::model::diagnose::Verdict;
use crate::model::metrics::report::MetricsReport;

/// The window the pane shows: the last three hours at one-minute points, as `dynoscope
/// metrics` does by default.
pub const PANE_SINCE_SECS: u64 = 3 * 3600;
pub const PANE_PERIOD_SECS: u32 = 60;
/// How often an open pane asks again.
pub const PANE_REFRESH: std::time::Duration = std::time::Duration::from_secs(60);

#[derive(Debug, Clone, PartialEq)]
pub enum MetricsStatus {
    /// The first batch is on its way.
    Loading,
    Ready,
    /// `cloudwatch:GetMetricData` is not allowed: the line naming the permission.
    Denied(String),
    /// The call failed; the series of the last refresh (if any) stay on screen.
    Failed(String),
}

#[derive(Debug, Clone)]
pub struct MetricsPane {
    /// The id of the batch asked for last: answers carrying another are stale and dropped.
    pub fetch_id: u64,
    /// Bumped on every open, so the refresh timer of a closed pane does nothing.
    pub generation: u64,
    pub status: MetricsStatus,
    pub report: Option<MetricsReport>,
    pub verdicts: Vec<Verdict>,
    /// The first line shown (the pane scrolls when it does not fit).
    pub scroll: usize,
    /// Refreshes answered so far.
    pub refreshes: u64,
}

impl MetricsPane {
    pub fn new(fetch_id: u64, generation: u64) -> Self {
        MetricsPane {
            fetch_id,
            generation,
            status: MetricsStatus::Loading,
            report: None,
            verdicts: Vec::new(),
            scroll: 0,
            refreshes: 0,
        }
    }
}
