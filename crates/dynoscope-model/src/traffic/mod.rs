//! A table's traffic and what it says: consumed capacity and its cost, why DynamoDB throttled,
//! CloudWatch metrics, Contributor Insights, the partition-key distribution of a scan, and
//! `diagnose`'s verdicts over that evidence.

pub mod capacity;
pub mod diagnose;
pub mod distribution;
pub mod insights;
pub mod metrics;
pub mod throttle;
