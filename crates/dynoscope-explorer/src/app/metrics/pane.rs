//! The metrics pane (`M`): the open table's and its GSIs' CloudWatch series over the last
//! hours, with the verdicts of `diagnose` on top. One GetMetricData batch per refresh, asked
//! for every minute while the pane is open; a denied or failed call costs only the pane.

use crate::model::traffic::diagnose::Verdict;
use crate::model::traffic::insights::{Contributor, RuleReport, TargetInsights};
use crate::model::traffic::metrics::report::MetricsReport;
use crate::model::traffic::metrics::Target;

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
    /// Contributor Insights (`I`): asked for only once shown, as each refresh costs a
    /// DescribeContributorInsights per target and a GetInsightRuleReport per rule.
    pub insights: Option<InsightsSection>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct InsightsSection {
    /// The answer asked for last: answers carrying another id are stale and dropped.
    pub fetch_id: u64,
    /// `None` until the first answer.
    pub targets: Option<Vec<TargetInsights>>,
    /// The last answer's denied permissions (`Denied::line()`) and failures, one line each.
    pub problems: Vec<String>,
    /// Into [`InsightsSection::keys`].
    pub cursor: usize,
}

/// One listed key: what the cursor moves over and Enter opens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InsightsKey<'a> {
    pub target: &'a Target,
    pub rule: &'a RuleReport,
    pub contributor: &'a Contributor,
}

impl InsightsSection {
    pub fn new(fetch_id: u64) -> Self {
        InsightsSection {
            fetch_id,
            targets: None,
            problems: Vec::new(),
            cursor: 0,
        }
    }

    /// Every key listed, in the order the pane shows them.
    pub fn keys(&self) -> Vec<InsightsKey<'_>> {
        let Some(targets) = &self.targets else {
            return Vec::new();
        };
        targets
            .iter()
            .flat_map(|t| {
                t.rules.iter().flat_map(move |rule| {
                    rule.top.iter().map(move |contributor| InsightsKey {
                        target: &t.target,
                        rule,
                        contributor,
                    })
                })
            })
            .collect()
    }

    pub fn selected(&self) -> Option<InsightsKey<'_>> {
        self.keys().get(self.cursor).copied()
    }
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
            insights: None,
        }
    }
}
