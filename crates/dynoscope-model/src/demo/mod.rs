//! The demo table: its deterministic single-table data set and its write load (`seed --churn`).

pub mod churn;
pub mod demo_data;
