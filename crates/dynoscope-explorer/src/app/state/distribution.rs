//! The key distribution of the loaded items, computed once when the view opens.

use crate::model::text::sanitize::sanitize;
use crate::model::text::wrap::word_wrap;
use crate::model::traffic::distribution::{KeyDistribution, Warning};

/// The key distribution of the loaded items, computed once when the view opens.
#[derive(Debug, Clone)]
pub struct DistributionView {
    pub distribution: KeyDistribution,
    pub warnings: Vec<Warning>,
    /// Rows scrolled off the top; at most [`DistributionView::max_scroll`].
    pub scroll: usize,
    /// Lines the view draws besides its warnings (checked by the ui).
    pub line_count: usize,
}

/// Keys the distribution view lists, most items first.
pub const DISTRIBUTION_TOP_KEYS: usize = 50;

impl DistributionView {
    /// The summary, a blank line and header, the top keys, shard families (if any) and the
    /// histogram, each section after a blank line and a header; the warnings are counted by
    /// [`DistributionView::rows`], as they wrap.
    pub fn count_lines(distribution: &KeyDistribution) -> usize {
        let families = distribution.shard_families().len();
        1 + 2
            + distribution.top(DISTRIBUTION_TOP_KEYS).len()
            + if families > 0 { 2 + families } else { 0 }
            + 2
            + distribution.histogram().len()
    }

    /// A warning as the rows it is drawn in, `width` columns wide (words kept whole).
    pub fn warning_rows(warning: &Warning, width: usize) -> Vec<String> {
        word_wrap(&format!("⚠ {}", sanitize(&warning.message)), width)
    }

    /// Rows the view draws at `width` columns.
    pub fn rows(&self, width: usize) -> usize {
        self.line_count
            + self
                .warnings
                .iter()
                .map(|w| Self::warning_rows(w, width).len())
                .sum::<usize>()
    }

    /// Scrolling stops with the last row at the bottom of `height` visible rows: no blank
    /// space past the end.
    pub fn max_scroll(&self, width: usize, height: usize) -> usize {
        self.rows(width).saturating_sub(height)
    }
}
