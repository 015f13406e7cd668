//! The key distribution of the loaded items, computed once when the view opens.

use crate::model::distribution::{KeyDistribution, Warning};

/// The key distribution of the loaded items, computed once when the view opens.
#[derive(Debug, Clone)]
pub struct DistributionView {
    pub distribution: KeyDistribution,
    pub warnings: Vec<Warning>,
    pub scroll: usize,
    /// Lines the view draws (checked by the ui); scrolling stops with the last one on top.
    pub line_count: usize,
}

/// Keys the distribution view lists, most items first.
pub const DISTRIBUTION_TOP_KEYS: usize = 50;

impl DistributionView {
    /// The summary, warnings, top keys, shard families (if any) and the histogram, each
    /// section after a blank line and a header.
    pub fn count_lines(distribution: &KeyDistribution, warnings: &[Warning]) -> usize {
        let families = distribution.shard_families().len();
        1 + warnings.len()
            + 2
            + distribution.top(DISTRIBUTION_TOP_KEYS).len()
            + if families > 0 { 2 + families } else { 0 }
            + 2
            + distribution.histogram().len()
    }

    pub fn max_scroll(&self) -> usize {
        self.line_count.saturating_sub(1)
    }
}
