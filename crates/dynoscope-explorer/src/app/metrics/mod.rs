//! The metrics pane (`M`, and `I` with Contributor Insights), one feature in one folder: its
//! state (`pane`), what its keys and CloudWatch's answers do (`keys`, and `insights` for the
//! Contributor Insights section), and the lines it shows (`lines`, `insights_lines`), which
//! `ui::metrics_pane` styles. It opens in the slot over the table (`state::CoverPane`).

pub(crate) mod insights;
pub mod insights_lines;
pub(crate) mod keys;
pub mod lines;
mod pane;

pub use pane::{
    InsightsKey, InsightsSection, MetricsPane, MetricsStatus, PANE_PERIOD_SECS, PANE_REFRESH,
    PANE_SINCE_SECS,
};

#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
#[cfg(test)]
mod insights_tests;
#[cfg(test)]
mod keys_tests;
